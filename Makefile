# SPDX-License-Identifier: GPL-2.0-only
#
# cpu_alloc for Linux 6.1: the driver.
#
# kernel-base.lock + commits/ -> a kernel work tree, built and booted in
# QEMU.  The targets are thin: each one runs a script in scripts/.  The
# settings (`make VAR=value`, listed by `make help`) and their defaults
# live in scripts/lib.sh alone: make passes what its command line says
# on to the scripts' environment, and sets nothing itself.

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
S := $(TOP)/scripts
# Beautify output, as the kernel does: V=1 shows every command.
Q := $(if $(filter 1,$(V)),,@)

# The steps of `all` (and of `make build boot`) depend on each other:
# never run them at once, even under make -j.
.NOTPARALLEL:

# The default target: set everything up and boot the series head.
all: deps tree build boot

help:
	@echo 'cpu_alloc for Linux 6.1 -- the driver'
	@echo ''
	@echo 'Main job:'
	@echo '  all           - deps, tree, build and boot of the series head [default]'
	@echo '  deps          - install with apt-get what the project needs (idempotent)'
	@echo '  relock        - pin the linux-source version the archive offers now'
	@echo '  tree          - import the pinned base and git am commits/ onto $$(BRANCH)'
	@echo '  export        - write $$(BRANCH) back to commits/ (byte-stable)'
	@echo '  build         - build REV (default: series head) out of tree in O='
	@echo '  boot          - boot the build in QEMU (SMP=, MAXCPUS=) and check its verdict'
	@echo '  kaslr-check   - boot the build three times: two random cpu area bases, nokaslr at the start'
	@echo ''
	@echo 'Checks:'
	@echo '  bisect-check  - build and boot every commit, base to head; cached by commit id'
	@echo '  check         - checkpatch, sparse, i386 NUMA, x86_64 and arm64 allmodconfig compiles of the touched files; only new warnings fail'
	@echo '  cold-cost     - how much of the tree each commit makes a cold ccache compile again (COLD_SAMPLE=, COLD_FULL_MAX=)'
	@echo '  regen         - re-run coccinelle/*.cocci; check generated commits (UPDATE=1 rewrites)'
	@echo '  convert-report - list the alloc_percpu-family call sites left in the tree'
	@echo '  bisect        - git bisect run GOOD..BAD with build+boot as the test'
	@echo '  am-check      - git am onto a fresh base import, git am / git am -3 onto the newest plain 6.1.y; a table (AM_ALL=1, AM_VERSIONS=)'
	@echo '  bench         - base vs head per-cpu allocator benchmarks and workloads in QEMU: WORK/bench/bench.md (QUICK=1)'
	@echo ''
	@echo 'Mail:'
	@echo '  mail          - the series numbered [PATCH n/m] with its cover letter in WORK/mail'
	@echo '  send          - b4: enroll, cover letter, get_maintainer.pl; send or write WORK/outgoing'
	@echo ''
	@echo 'Tests:'
	@echo '  test          - what CI runs: selftest, every commit built and booted, checks (FRESH=1: cold)'
	@echo '  test-all      - test, plus cold-cost, the full make bench and more SMP shapes (beyond the CI budget)'
	@echo '  selftest      - the driver'"'"'s own tests on a fake kernel tree (seconds)'
	@echo ''
	@echo "Settings (make VAR=value): V=1 verbose, WORK= ($$(bash -c '. $(S)/lib.sh && echo "$$WORK"')), O=, REV=,"
	@echo 'SMP=, MAXCPUS=, BOOT_TIMEOUT=, DEBUG=1, STRESS_OPS=, STRESS_SECS=, FORCE=1, UPDATE=1, GOOD=, BAD=, TO=, SEND=1,'
	@echo 'QUICK=1, FRESH=1, FRESH_CONFIG=1 (configure even when nothing changed), BUDGET=, COLD_SAMPLE=, COLD_FULL_MAX=, OVERLAP=0, UNSEEN=0 (bisect-check builds every commit), SPATCH_CACHE=, CHECKPATCH_CACHE=, SPARSE_CACHE= (none: off), SPARSE=0, I386=0|only, WIDE=0|only, ARM64=0, CHECK_COMMITS=all|head, AM_ALL=1, AM_VERSIONS=, AM_CACHE=, NFS=0, NFS_PORT=, GANESHA=, KMEMLEAK_OTHERS=warn,'
	@echo 'KMEM_XFAIL= (test_kmem tests allowed to fail in the guest; default test_kmem_basic, with DEBUG=1 also test_kmem_dead_cgroups),'
	@echo 'KMEM_SKIP= (test_kmem tests not run; default test_kmem_basic, in bisect-check and kaslr-check also test_kmem_memcg_deletion; none: all run).'

# Each target runs its script: scripts/<target>.sh.
SCRIPTS := deps relock tree export build boot kaslr-check bisect-check check cold-cost regen convert-report \
	mail send am-check bisect bench
$(SCRIPTS):
	$(Q)$(S)/$@.sh

selftest:
	$(Q)$(TOP)/tests/run.sh

test:
	$(Q)$(TOP)/tests/ci.sh

test-all:
	$(Q)TEST_ALL=1 $(TOP)/tests/ci.sh

.PHONY: all help $(SCRIPTS) selftest test test-all
