# SPDX-License-Identifier: GPL-2.0-only
#
# cpu_alloc for Linux 6.1: the driver.
#
# kernel-base.lock + commits/ -> a kernel work tree, built and booted in
# QEMU.  The targets are thin: each one runs a script in scripts/, which
# reads the settings below from the environment.  `make help` lists them.

# Beautify output, as the kernel does: V=1 shows every command.
V ?= 0
ifeq ($(V),1)
  Q :=
else
  Q := @
endif
export V

# 1: `make test` measures a fresh machine: a WORK of its own, emptied
# first, with an empty ccache directory in it (bisect-check: ignore the
# results cached by commit id).
FRESH ?= 0
# Where the kernel work tree, builds, logs and results live (outside the
# repository).
ifeq ($(FRESH),1)
  WORK ?= $(HOME)/.cache/cpu-alloc-fresh
endif
WORK ?= $(HOME)/.cache/cpu-alloc
# The kernel git work tree made by `make tree`.
SRC ?= $(WORK)/linux
# The kernel build directory (the kernel's own O=); DEBUG=1 builds have
# their own, so that switching does not rebuild everything.  A nested
# make (make test runs make ... DEBUG=1) inherits the parent's exported
# O: if that was the parent's default, it is worked out again here.
ifeq ($(origin O),undefined)
  export CPU_ALLOC_DEFAULT_O := 1
endif
ifeq ($(CPU_ALLOC_DEFAULT_O),1)
  O = $(WORK)/build$(if $(filter 1,$(DEBUG)),-debug)
endif
# The branch of $(SRC) that holds the series.
BRANCH ?= cpu-alloc
# The commit to build or boot: any revision of $(SRC); empty means the
# head of $(BRANCH).
REV ?=
# CPUs online in the guest, and CPUs possible (maxcpus).
SMP ?= 4
MAXCPUS ?= $(SMP)
# Seconds before a boot that has not ended counts as hung (a debug
# kernel's stress test takes minutes under TCG); defaulted like O.
ifeq ($(origin BOOT_TIMEOUT),undefined)
  export CPU_ALLOC_DEFAULT_TIMEOUT := 1
endif
ifeq ($(CPU_ALLOC_DEFAULT_TIMEOUT),1)
  BOOT_TIMEOUT = $(if $(filter 1,$(DEBUG)),900,300)
endif
# 1: also merge qemu/debug.config (lockdep, KASAN, kmemleak, ...).
DEBUG ?= 0
# Operations of the guest's cpu_alloc stress test; empty: 10^6; 0 skips
# it.
STRESS_OPS ?=
# 1: let `make tree` throw away a branch that differs from commits/.
FORCE ?= 0
# 1: `make regen` rewrites the generated commits instead of checking.
UPDATE ?= 0
# Where `make send` mails the series (added to get_maintainer.pl's list).
TO ?=
# 1: `make send` really sends, where a mail configuration exists.
SEND ?= 0
# The good and bad ends of `make bisect`.
GOOD ?=
BAD ?=
# 1: `make bench` runs fewer sizes, iterations and runs (minutes).
QUICK ?= 0
export QUICK
# Seconds `make test` may take before it warns (CI stops at 5400).
BUDGET ?= 3600
# Parallel jobs of the kernel build.
JOBS ?= $(shell nproc)

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
CONFIG_EXTRA := $(if $(filter 1,$(DEBUG)),$(TOP)/qemu/debug.config)
export FRESH BUDGET WORK SRC O BRANCH REV SMP MAXCPUS BOOT_TIMEOUT STRESS_OPS FORCE UPDATE GOOD BAD JOBS TOP CONFIG_EXTRA TO SEND
# ccache: rewrite absolute paths under $(WORK), so that builds of the
# same commit hit the cache from any work directory.
export CCACHE_BASEDIR := $(WORK)

S := $(TOP)/scripts

PHONY :=

# The default target: set everything up and boot the series head.
PHONY += all
all: deps tree build boot

PHONY += help
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
	@echo ''
	@echo 'Checks:'
	@echo '  bisect-check  - build and boot every commit, base to head; cached by commit id'
	@echo '  check         - checkpatch and sparse on the series; only new warnings fail'
	@echo '  regen         - re-run coccinelle/*.cocci; check generated commits (UPDATE=1 rewrites)'
	@echo '  convert-report - list the alloc_percpu-family call sites left in the tree'
	@echo '  bisect        - git bisect run GOOD..BAD with build+boot as the test'
	@echo '  am-check      - git am commits/ onto a fresh import of the base (AM_ALSO=versions)'
	@echo '  bench         - base vs head per-cpu allocator benchmarks in QEMU: WORK/bench/bench.md (QUICK=1)'
	@echo ''
	@echo 'Mail:'
	@echo '  mail          - the series numbered [PATCH n/m] with its cover letter in WORK/mail'
	@echo '  send          - b4: enroll, cover letter, get_maintainer.pl; send or write WORK/outgoing'
	@echo ''
	@echo 'Tests:'
	@echo '  test          - what CI runs: selftest, every commit built and booted, checks (FRESH=1: cold)'
	@echo '  test-all      - test, plus the full make bench and more SMP shapes (beyond the CI budget)'
	@echo '  selftest      - the driver'"'"'s own tests on a fake kernel tree (seconds)'
	@echo ''
	@echo 'Settings (make VAR=value): V=1 verbose, WORK= ($(WORK)), O=, REV=,'
	@echo 'SMP=, MAXCPUS=, BOOT_TIMEOUT=, DEBUG=1, STRESS_OPS=, FORCE=1, UPDATE=1, GOOD=, BAD=, TO=, SEND=1,'
	@echo 'QUICK=1, FRESH=1, BUDGET=.'

PHONY += deps
deps:
	$(Q)$(S)/deps.sh

PHONY += relock
relock:
	$(Q)$(S)/relock.sh

PHONY += tree
tree:
	$(Q)$(S)/tree.sh

PHONY += export
export:
	$(Q)$(S)/export.sh

PHONY += build
build:
	$(Q)$(S)/build.sh

PHONY += boot
boot:
	$(Q)$(S)/boot.sh

PHONY += bisect-check
bisect-check:
	$(Q)$(S)/bisect-check.sh

PHONY += check
check:
	$(Q)$(S)/check.sh

PHONY += regen
regen:
	$(Q)$(S)/regen.sh

PHONY += convert-report
convert-report:
	$(Q)$(S)/convert-report.sh

PHONY += mail
mail:
	$(Q)$(S)/mail.sh

PHONY += send
send:
	$(Q)$(S)/send.sh

PHONY += am-check
am-check:
	$(Q)$(S)/am-check.sh

PHONY += bisect
bisect:
	$(Q)$(S)/bisect.sh

PHONY += bench
bench:
	$(Q)$(S)/bench.sh

PHONY += selftest
selftest:
	$(Q)$(TOP)/tests/run.sh

PHONY += test
test:
	$(Q)$(TOP)/tests/ci.sh

PHONY += test-all
test-all:
	$(Q)TEST_ALL=1 $(TOP)/tests/ci.sh

.PHONY: $(PHONY)
