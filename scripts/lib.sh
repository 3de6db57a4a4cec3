# SPDX-License-Identifier: GPL-2.0-only
# Common helpers of the cpu_alloc driver scripts.  Sourced, never run.
#
# Every script reads its settings from the environment that the Makefile
# exports (WORK, SRC, O, LOCK, ...), so each one can also be run by hand.

set -euo pipefail

# --- the settings ---------------------------------------------------
#
# Every setting of the driver and its default, in one place: the
# Makefile sets none, it only passes on what `make VAR=value` says.  A
# value from the environment (or make's command line) wins; the derived
# defaults (O, BOOT_TIMEOUT, CONFIG_EXTRA from DEBUG) are worked out
# here, and are not exported: a script run by another one (a nested
# make, build.sh from bisect-check.sh) works them out again from its
# own DEBUG.  `make help` describes them; tests/run.sh clears them all.
CPU_ALLOC_SETTINGS="V WORK SRC O BRANCH REV SMP MAXCPUS BOOT_TIMEOUT DEBUG STRESS_OPS STRESS_SECS FORCE UPDATE
	GOOD BAD QUICK FRESH BUDGET JOBS TO SEND CONFIG_EXTRA LOCK COMMITS LOGS CHECKOUT RESULTS
	EXPECT_CPUS MEM QEMU KVM TOP CCACHE_BASEDIR SPARSE I386 WIDE ARM64 AM_ALL AM_VERSIONS NFS NFS_PORT GANESHA KMEMLEAK_OTHERS
	KMEM_XFAIL KMEM_SKIP COLD_SAMPLE COLD_FULL_MAX OVERLAP FRESH_CONFIG SPATCH_CACHE CHECKPATCH_CACHE SPARSE_CACHE AM_CACHE UNSEEN CHECK_COMMITS"

# The repository this driver lives in.
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
LOCK=${LOCK:-$TOP/kernel-base.lock}
COMMITS=${COMMITS:-$TOP/commits}
# 1: show every command.
V=${V:-0}
# 1: `make test` measures a fresh machine: a WORK of its own, emptied
# first, with an empty ccache directory in it (bisect-check: ignore the
# results cached by commit id).
FRESH=${FRESH:-0}
# Where the kernel work tree, builds, logs and results live (outside
# the repository).
if [ "$FRESH" = 1 ]; then WORK=${WORK:-$HOME/.cache/cpu-alloc-fresh}; fi
WORK=${WORK:-$HOME/.cache/cpu-alloc}
# The kernel git work tree made by `make tree`, and its branch that
# holds the series.
SRC=${SRC:-$WORK/linux}
BRANCH=${BRANCH:-cpu-alloc}
# The commit to build or boot: any revision of $SRC; empty means the
# head of $BRANCH.
REV=${REV:-}
# 1: also merge qemu/debug.config (lockdep, KASAN, kmemleak, ...).
DEBUG=${DEBUG:-0}
# The config fragments added to qemu/cpu_alloc.config (bench.sh sets it
# empty for its own builds).
[ "$DEBUG" = 1 ] && debug=1 || debug=
CONFIG_EXTRA=${CONFIG_EXTRA-${debug:+$TOP/qemu/debug.config}}
# The kernel build directory (the kernel's own O=); DEBUG=1 builds have
# their own, so that switching does not rebuild everything.
O=${O:-$WORK/build${debug:+-debug}}
LOGS=${LOGS:-$WORK/logs}
# The scratch checkout a build compiles: DEBUG=1 builds have their own
# too, so that one can run beside bisect-check (make test does).
CHECKOUT=${CHECKOUT:-$WORK/checkout${debug:+-debug}}
RESULTS=${RESULTS:-$WORK/results}
# Parallel jobs of the kernel build.
JOBS=${JOBS:-$(nproc)}
# CPUs online in the guest, CPUs possible (maxcpus), and the CPUs the
# kernel must bring up.
SMP=${SMP:-4}
MAXCPUS=${MAXCPUS:-$SMP}
EXPECT_CPUS=${EXPECT_CPUS:-$SMP}
# Seconds before a boot that has not ended counts as hung (a debug
# kernel's stress test takes minutes under TCG).
BOOT_TIMEOUT=${BOOT_TIMEOUT:-${debug:+900}}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-300}
unset debug
# Operations of the guest's cpu_alloc stress test; empty: 10^6; 0 skips it.
STRESS_OPS=${STRESS_OPS:-}
# Seconds after which the stress test stops, done or not; empty: none.
STRESS_SECS=${STRESS_SECS:-}
# The emulator, the guest's memory, and KVM instead of TCG (KVM=1).
QEMU=${QEMU:-qemu-system-x86_64}
MEM=${MEM:-512M}
KVM=${KVM:-0}
# What a kmemleak report besides the planted leak does to a debug boot:
# fail (the default) or warn (shown with a NOTE, for a kernel or config
# with a known false report).
KMEMLEAK_OTHERS=${KMEMLEAK_OTHERS:-fail}
# The tests of the kernel's test_kmem that may fail in the guest, for a
# reason of the guest and not of the kernel, separated by commas.
# test_kmem_basic counts on negative dentries staying in the dcache, but
# the initramfs root (tmpfs, ramfs) drops them at once (simple_lookup's
# always_delete_dentry), so its "slab" never reaches 1M: base and series
# alike.  With DEBUG=1, test_kmem_dead_cgroups too: it gives 30 removed
# cgroups 5 seconds to be freed, and the KASAN, lockdep and kmemleak
# guest under TCG, 5-10 times slower, misses that now and then, twice in
# a row in one of three boots (it waits for RCU and workqueues, not for
# cpu_alloc); every other boot still requires it.  test_percpu_basic
# must pass whatever this says.
[ "$DEBUG" = 1 ] && kmem_debug=,test_kmem_dead_cgroups || kmem_debug=
KMEM_XFAIL=${KMEM_XFAIL-test_kmem_basic$kmem_debug}
unset kmem_debug
# The tests of test_kmem the guest does not run (commas; never
# test_percpu_basic; "none": run them all).  Empty: make boot's default,
# test_kmem_basic, which this guest always fails (KMEM_XFAIL) and which
# took 183 s of the debug guest's 380 s of test_kmem; make
# bisect-check's and kaslr-check's boots also skip
# test_kmem_memcg_deletion, most of the rest (see qemu/test_kmem_main.c).
KMEM_SKIP=${KMEM_SKIP:-}
# What those repeated boots skip when KMEM_SKIP is empty (not a setting).
KMEM_SKIP_REPEATED=test_kmem_basic,test_kmem_memcg_deletion
# 1: make boot serves an NFS export to the guest from nfs-ganesha on the
# host (127.0.0.1:NFS_PORT; the guest sees it as 10.0.2.2), where the
# kernel has the NFS client; 0: no server, the guest reports
# nfs=noserver and the host accepts it.  GANESHA is the server program.
# NFS_PORT=auto takes the first free port from 20490 (scripts/nfs.sh).
NFS=${NFS:-1}
NFS_PORT=${NFS_PORT:-auto}
GANESHA=${GANESHA:-ganesha.nfsd}
# 1: let `make tree` throw away a branch that differs from commits/.
FORCE=${FORCE:-0}
# 1: `make regen` rewrites the generated commits instead of checking.
UPDATE=${UPDATE:-0}
# 0: make check skips sparse; 0: make check skips the i386 NUMA compile,
# "only": it runs that compile alone; 0: make check skips the x86_64
# allmodconfig compile, "only": it runs that compile alone (make test
# runs both so, behind bisect-check).
SPARSE=${SPARSE:-1}
I386=${I386:-1}
WIDE=${WIDE:-1}
# 0: the wide compile leaves out its arm64 part (arm64 allmodconfig
# with Debian's cross compiler, for the files x86_64 does not build).
ARM64=${ARM64:-1}
# The commits whose files make check compiles under i386 and
# allmodconfig (x86_64, arm64): "all" (each file at each commit that
# touches it, and every file at the head), or "head" (every file at the
# head only: make test's choice, for CI's time; bisect-check still
# builds every commit with the boot config).
CHECK_COMMITS=${CHECK_COMMITS:-all}
# make am-check: 1 checks every plain 6.1.y the archive lists; or the
# versions to check ("6.1.176 6.1.187", "none": the base only).
AM_ALL=${AM_ALL:-0}
AM_VERSIONS=${AM_VERSIONS:-}
# Where make am-check keeps the 6.1.y tarballs it downloads (each in a
# directory named by its version and SHA256): outside $WORK, like
# ccache, so that CI's fresh WORK downloads nothing again.  FRESH=1
# (make test) gives it an empty directory in its WORK.
AM_CACHE=${AM_CACHE:-$HOME/.cache/cpu-alloc-tarballs}
# The good and bad ends of `make bisect`.
GOOD=${GOOD:-}
BAD=${BAD:-}
# 1: `make bench` runs fewer sizes, iterations, runs and workload counts (minutes).
QUICK=${QUICK:-0}
# Seconds `make test` may take before it warns (CI stops at 5400).
BUDGET=${BUDGET:-3600}
# make cold-cost: the objects sampled, and how many times a cold
# bisect-check may compile the whole tree (the commits' shares of new
# preprocessed text, the first build counting 1)
COLD_SAMPLE=${COLD_SAMPLE:-12}
COLD_FULL_MAX=${COLD_FULL_MAX:-4}
# Where `make send` mails the series (added to get_maintainer.pl's
# list), and 1: really send, where a mail configuration exists.
TO=${TO:-}
SEND=${SEND:-0}
# 1: make bisect-check neither builds nor boots a commit that changes
# no file its parent's build read (its row says SAME); 0: it builds and
# boots every commit.
UNSEEN=${UNSEEN:-1}
# 1: make bisect-check boots each commit while it builds the next, and
# make test builds the debug kernel behind its other steps; 0: one
# thing at a time.
OVERLAP=${OVERLAP:-1}
# ccache: rewrite absolute paths under $WORK, so that builds of the
# same commit hit the cache from any work directory.
export CCACHE_BASEDIR=$WORK
# make regen's cache of spatch runs, ccache's counterpart (see
# scripts/regen.sh): outside $WORK, so that a new work directory (CI's)
# still finds it; "none": run spatch every time.  FRESH=1 (make test)
# gives it an empty directory in its WORK.
SPATCH_CACHE=${SPATCH_CACHE:-$HOME/.cache/cpu-alloc-spatch}
# make check's cache of checkpatch.pl runs (see scripts/check.sh), the
# same way; "none": run checkpatch every time.  FRESH=1 (make test)
# gives it an empty directory in its WORK.
CHECKPATCH_CACHE=${CHECKPATCH_CACHE:-$HOME/.cache/cpu-alloc-checkpatch}
# make check's and make bisect-check's cache of sparse runs (see
# sparse_cached), the same way; "none": run sparse every time.
SPARSE_CACHE=${SPARSE_CACHE:-$HOME/.cache/cpu-alloc-sparse}

# Fixed identity of the imported base commit: the same tarball gives the
# same commit id on every machine.
BASE_IDENT_NAME="Debian linux-source"
BASE_IDENT_EMAIL="debian-kernel@lists.debian.org"
BASE_IDENT_DATE="2000-01-01T00:00:00+0000"

info() { printf '  %-7s %s\n' "$1" "$2"; }
warn() { printf '%s: warning: %s\n' "${0##*/}" "$*" >&2; }
die() {
	printf '%s: error: %s\n' "${0##*/}" "$1" >&2
	shift
	for l in "$@"; do printf '  %s\n' "$l" >&2; done
	exit 1
}
vrun() { [ "${V:-0}" = 1 ] && echo "+ $*" >&2; "$@"; }

# A setting with a fixed set of values: a typo must not loosen a check.
case $KMEMLEAK_OTHERS in
fail | warn) ;;
*) die "KMEMLEAK_OTHERS=$KMEMLEAK_OTHERS: must be fail or warn" "run: make boot DEBUG=1 KMEMLEAK_OTHERS=warn" ;;
esac

case $WIDE in
0 | 1 | only) ;;
*) die "WIDE=$WIDE: must be 0, 1 or only" "run it again with WIDE=1 (the default), WIDE=0 or WIDE=only" ;;
esac

case $I386 in
0 | 1 | only) ;;
*) die "I386=$I386: must be 0, 1 or only" "run it again with I386=1 (the default), I386=0 or I386=only" ;;
esac

case $CHECK_COMMITS in
all | head) ;;
*) die "CHECK_COMMITS=$CHECK_COMMITS: must be all or head" "run it again with CHECK_COMMITS=all (the default) or head" ;;
esac

case $UNSEEN in
0 | 1) ;;
*) die "UNSEEN=$UNSEEN: must be 0 or 1" "run it again with UNSEEN=1 (the default) or UNSEEN=0" ;;
esac

case $ARM64 in
0 | 1) ;;
*) die "ARM64=$ARM64: must be 0 or 1" "run it again with ARM64=1 (the default) or ARM64=0" ;;
esac

case $OVERLAP in
0 | 1) ;;
*) die "OVERLAP=$OVERLAP: must be 0 or 1" "run it again with OVERLAP=1 (the default) or OVERLAP=0" ;;
esac

# lock_get KEY: the value of KEY in the lock file.
lock_get() {
	[ -f "$LOCK" ] || die "no lock file $LOCK" "run: make relock"
	sed -n "s/^$1=//p" "$LOCK" | head -n1
}

# git in the kernel work tree, with no user configuration leaking in.
kgit() { git -C "$SRC" -c core.autocrlf=false -c advice.detachedHead=false "$@"; }

# tree_dirty: true when the work tree has changes not in a commit,
# including untracked files hidden by Debian's top-level .gitignore.
tree_dirty() {
	! kgit diff-index --quiet HEAD -- 2>/dev/null && return 0
	[ -n "$(kgit ls-files --others -- | head -n1)" ] && return 0
	return 1
}

# am_in_progress: true while a git am is stopped in the work tree.
am_in_progress() { [ -d "$(kgit rev-parse --absolute-git-dir)/rebase-apply" ]; }

# worktree DIR REV: make DIR a detached worktree of $SRC at REV, unless
# it is one already (then it is left where it is).
worktree() {
	lock_dir "$1"
	[ -e "$1/.git" ] && return 0
	rm -rf "$1"
	kgit worktree prune
	kgit worktree add -q --detach "$1" "$2" >/dev/null
}

# lock_dir DIR: make this script (and the scripts it runs) the only user
# of the scratch directory DIR until it exits; two builds switching one
# checkout between commits would break each other.  Fails at once if
# another make holds it.
lock_dir() {
	local var
	var=CPU_ALLOC_LOCK_$(printf '%s' "$1" | cksum | cut -d' ' -f1)
	[ -n "${!var:-}" ] && return 0
	command -v flock >/dev/null || return 0
	mkdir -p "$(dirname "$1")"
	exec {lockfd}>"$1.lock"
	flock -n "$lockfd" ||
		die "another make is using $1" "wait for it to finish, or give this one its own WORK="
	export "$var=1"
}

# resolve REV: the commit id of REV in the work tree, or die.
resolve() {
	kgit rev-parse --verify -q "$1^{commit}" ||
		die "unknown revision '$1' in $SRC" "see: git -C $SRC log --oneline $(lock_get BASE_COMMIT)..$BRANCH"
}

# --- configuring and compiling a kernel tree --------------------------

# The config fragments merged onto allnoconfig: the boot config, and
# $CONFIG_EXTRA (qemu/debug.config with DEBUG=1).
FRAGMENTS="$TOP/qemu/cpu_alloc.config ${CONFIG_EXTRA:-}"
# Where the base's objects are compiled for the warning baselines of
# make bisect-check and make check (never a whole kernel).
BASE_O=${BASE_O:-$WORK/build-base}
BASE_CHECKOUT=${BASE_CHECKOUT:-$WORK/checkout-base}

# build_tag: what tells apart the results and logs of builds of one
# commit under different config fragments: empty for the boot config
# alone, "-debug" with qemu/debug.config, else "-extra-" and a hash of
# the extra fragments.  A build with DEBUG=1 of the head (make test
# runs one beside bisect-check) must not overwrite the warnings that
# bisect-check judges.
build_tag() {
	case ${CONFIG_EXTRA:-} in
	"") ;;
	"$TOP/qemu/debug.config") echo -debug ;;
	*) echo "-extra-$(cat $CONFIG_EXTRA | sha256sum | cut -c1-8)" ;;
	esac
}

# use_ccache: true when compiles go through ccache (installed, and not
# turned off with CCACHE=0).
use_ccache() { command -v ccache >/dev/null && [ "${CCACHE:-1}" = 1 ]; }

# kmake DIR O ARGS...: the kernel's make in source tree DIR, output in
# O, with ccache unless CCACHE=0: the kernel's objects and the host
# programs (fixdep, kconfig, objtool, ...), which every build directory
# of a run (boot, debug, base objects, i386, x86_64 and arm64
# allmodconfig) otherwise compiles again, 40-60 files each.
kmake() {
	local dir=$1 o=$2
	shift 2
	local cc=()
	# CROSS_COMPILE in the environment (make check's arm64 compile)
	# names the compiler, as kbuild's own CC would
	use_ccache &&
		cc=("CC=ccache ${CROSS_COMPILE:-}gcc" "HOSTCC=ccache gcc")
	vrun make -C "$dir" O="$o" "${cc[@]}" "$@"
}

# compile_cmd CMDFILE: the compiler's command line from a kbuild .cmd
# file, without what must not run again: the objtool pass that kbuild
# appends after a ";" (it rewrites the build's object) and the
# dependency file (-Wp,-MMD).
compile_cmd() {
	local cc
	cc=$(sed -n '1s/^cmd_[^ ]* := //p' "$1")
	cc=${cc%%;*}
	printf '%s' "$cc" | sed -E 's# -Wp,-MMD,[^ ]+##'
}

# configure DIR O LOG: allnoconfig plus $FRAGMENTS in O, by the tree's
# own merge_config.sh.  A requested symbol that the tree defines but the
# result lacks fails (a dependency is missing from the fragments); one
# the tree does not define yet (CONFIG_CPU_ALLOC on the base) is skipped.
configure() {
	local dir=$1 o=$2 log=$3 syms missing=
	mkdir -p "$o"
	# shellcheck disable=SC2086
	(cd "$dir" && vrun scripts/kconfig/merge_config.sh -n -O "$o" $FRAGMENTS) >"$log" 2>&1 || {
		tail -n 20 "$log" >&2
		die "configuring $dir in $o failed" "log: $log"
	}
	# (one git grep for all of them)
	syms=$(sed -n 's/^Value requested for CONFIG_\([A-Za-z0-9_]*\) not in final .config$/\1/p' "$log" | sort -u)
	if [ -n "$syms" ]; then
		missing=$({ git -C "$dir" grep -h -E "^(menu)?config ($(printf '%s\n' "$syms" | paste -sd'|'))\$" -- '*Kconfig*' || true; } |
			awk '{ print $2 }' | sort -u | comm -12 - <(printf '%s\n' "$syms") | sed 's/^/ CONFIG_/' | tr -d '\n')
	fi
	[ -z "$missing" ] || die "the config fragments ask for$missing, which the tree in $dir does not allow" \
		"see: $log (a dependency is missing from qemu/*.config)"
}

# config_inputs DIR: a hash of what decides the .config that configure
# writes for the tree in DIR: the fragments, the tree's Kconfig files
# and the scripts they and merge_config.sh run (by blob id), and the
# toolchain that Kconfig probes.
config_inputs() {
	{
		cat $FRAGMENTS
		echo "ARCH=${ARCH:-} CROSS_COMPILE=${CROSS_COMPILE:-}"
		git -C "$1" ls-files -s -- '*Kconfig*' 'scripts/kconfig/*' 'scripts/*.sh' 'scripts/Kconfig.include'
		gcc --version | head -n1
		ld --version | head -n1
	} | sha256sum | cut -c1-16
}

# configure_once DIR O LOG: configure, unless O's .config is the one a
# build made after configuring from the same inputs (config_inputs, and
# the .config's own hash: a .config edited since is configured again).
# Configuring takes about 7 s and a build after it re-reads the config;
# between most commits of the series nothing it reads changes.
# config_done O then records the .config a build left, with the inputs
# configure_once hashed (CONFIG_INPUTS).
configure_once() {
	CONFIG_INPUTS=$(config_inputs "$1")
	if [ -f "$2/.config" ] && [ "${FRESH_CONFIG:-0}" != 1 ] &&
		[ "$CONFIG_INPUTS $(sha256sum <"$2/.config" | cut -c1-16)" = "$(cat "$2/.cpu-alloc-config" 2>/dev/null)" ]; then
		return 0
	fi
	rm -f "$2/.cpu-alloc-config"
	configure "$@"
}
config_done() {
	echo "$CONFIG_INPUTS $(sha256sum <"$1/.config" | cut -c1-16)" >"$1/.cpu-alloc-config"
}

# diag_lines KIND DIR: the compiler's warning lines (KIND warning) or
# sparse's (KIND sparse: "file: warning|error: message") of the build
# log on stdin as "file: message", without line and column and with the
# source directory DIR stripped (gcc sees it absolute, or as ../DIR/
# under ccache's CCACHE_BASEDIR), sorted: comparable across commits that
# move lines around and across checkouts.
diag_lines() {
	local re='warning' keep=
	[ "$1" = sparse ] && re='(warning|error)' keep='\2: '
	grep -aE "^[^ ]+:[0-9]+:[0-9]+: $re: " |
		sed -E -e "s|^$2/||" -e "s|^(\.\./)+${2##*/}/||" -e "s/^([^:]+):[0-9]+:[0-9]+: $re: /\\1: $keep/" |
		sort -u || true
}

# built_objs O FILES...: those of the .c FILES whose object the build
# in O made (the configuration builds them), one a line.
built_objs() {
	local o=$1 f
	shift
	for f in "$@"; do
		case "$f" in *.c) [ -f "$o/${f%.c}.o" ] && echo "$f" ;; esac
	done
	return 0
}

# job_slot: wait until fewer than JOBS background jobs of this shell run
# (a job's failure is its own to report), so that the next may start.
job_slot() {
	while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
}

# sparse_objs DIR O FILES...: sparse on the objects of the .c FILES
# in the configured build O of DIR, "file: message" lines.  It runs as
# kbuild's C=2 would ($(CHECK) $(CHECKFLAGS) $(c_flags) file.c), but
# directly: the flags are the compiler's from the object's .cmd file
# and CHECKFLAGS is read from the tree's Makefile, which saves a kbuild
# walk (about 4 s) per call.  That read (a make of the top Makefile, 2 s)
# is kept in O/.cpu-alloc-checkflags under a hash of what decides it
# (the .config, the top and x86 Makefiles, $CF), so bisect-check pays it
# once per build directory, not twice per commit.  A file whose object
# the build did not make (it does not compile: the compiler's to
# report) is skipped.
sparse_objs() {
	local dir=$1 o=$2 f cmd cmdf checkflags key mk out pid pids=()
	shift 2
	[ $# = 0 ] && return 0
	command -v sparse >/dev/null || die "sparse is not installed" "run: make deps"
	key=$({ cat "$o/.config" "$dir/Makefile" "$dir/arch/x86/Makefile" 2>/dev/null; echo "CF=${CF:-}"; } |
		sha256sum | cut -c1-16)
	if [ "$(sed -n 1p "$o/.cpu-alloc-checkflags" 2>/dev/null)" = "$key" ]; then
		checkflags=$(sed -n 2p "$o/.cpu-alloc-checkflags")
	else
		mk=$(mktemp)
		printf 'cpu-alloc-checkflags:\n\t@echo $(CHECKFLAGS)\n' >"$mk"
		checkflags=$(make -s -C "$o" -f Makefile -f "$mk" cpu-alloc-checkflags 2>/dev/null) || checkflags=
		rm -f "$mk"
		[ -n "$checkflags" ] || die "cannot read CHECKFLAGS from the build in $o" "run: make build"
		printf '%s\n%s\n' "$key" "$checkflags" >"$o/.cpu-alloc-checkflags"
	fi
	out=$(mktemp -d)
	[ "$SPARSE_CACHE" = none ] || [ -n "${SPARSE_INPUTS:-}" ] ||
		SPARSE_INPUTS=$(printf 'cpu-alloc sparse cache 1\n%s\n' "$(sparse --version 2>&1 | head -n1)")
	for f in "$@"; do
		cmdf=$o/$(dirname "$f")/.$(basename "${f%.c}").o.cmd
		[ -f "$cmdf" ] && [ -f "$o/${f%.c}.o" ] || continue
		# the compiler's flags: without the compiler (ccache gcc) and
		# without "-c -o file.o"
		cmd=$(compile_cmd "$cmdf" | sed -E -e 's/^([^ -][^ ]* +)+//' -e 's/ -c -o [^ ]+ / /')
		sparse_cached "$cmdf" "$checkflags" "$cmd" >"$out/${#pids[@]}" 2>&1 &
		pids+=($!)
		job_slot
	done
	for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
	# (no file at all when no object came out)
	{ cat "$out"/* 2>/dev/null || true; } | diag_lines sparse "$dir"
	rm -rf "$out"
}

# cache_put TMP DIR: publish the cache entry written in the directory
# TMP as DIR (of the spatch, checkpatch and sparse caches): marked done
# and renamed, so that a reader never sees half an entry; when another
# process published DIR first, TMP is dropped.
cache_put() {
	touch "$1/done"
	mkdir -p "${2%/*}"
	mv -T "$1" "$2" 2>/dev/null || rm -rf "$1"
}

# sparse_cached CMDFILE CHECKFLAGS FLAGS: sparse CHECKFLAGS FLAGS in
# $o (sparse_objs' build), for the object of kbuild's CMDFILE; from the
# cache ($SPARSE_CACHE, see above; "none": off) when it holds the same
# run, as ccache keeps a compile: under the hash of sparse's version,
# the flags, the build's autoconf.h (the config values; kbuild's lists
# name config symbols, not their values) and the path and text of the
# source and of every file the object's compile read (the .cmd file's
# list).  Their paths are those of the command line and the list,
# relative to $o or absolute, as are the paths sparse prints.
sparse_cached() {
	local cmdf=$1 key dir tmp t0 rc=0
	if [ "$SPARSE_CACHE" = none ]; then
		(cd "$o" && eval "sparse $2 $3")
		return
	fi
	key=$({
		printf '%s\n' "$SPARSE_INPUTS" "$2" "$3"
		sha256sum <"$o/include/generated/autoconf.h" 2>/dev/null || echo "no autoconf.h"
		{ sed -n 's/^source_[^ ]* := //p' "$cmdf"
		  sed -n '/^deps_/,/^$/p' "$cmdf" | grep -v -e '^deps_' -e 'wildcard' | sed 's/[ \\]*$//; s/^ *//'
		} | grep . | (cd "$o" && xargs -r sha256sum 2>&1) || true
	} | sha256sum | cut -c1-64)
	dir=$SPARSE_CACHE/${key:0:2}/$key
	mkdir -p "$LOGS"
	if [ -f "$dir/done" ]; then
		cat "$dir/out"
		echo "hit 0 ${cmdf#"$o"/}" >>"$LOGS/sparse-cache.log"
		return 0
	fi
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/sparse-cache.XXXXXX")
	t0=$SECONDS
	(cd "$o" && eval "sparse $2 $3") >"$tmp/out" 2>&1 || rc=$?
	cat "$tmp/out"
	# (what each run cost: $LOGS/sparse-cache.log)
	echo "miss $((SECONDS - t0)) ${cmdf#"$o"/}" >>"$LOGS/sparse-cache.log"
	# only a run that ended well is kept (sparse's status is 0 even
	# when it warns)
	if [ $rc = 0 ]; then
		cache_put "$tmp" "$dir"
	else
		rm -rf "$tmp"
	fi
	return $rc
}

# base_dir: where base_objs keeps the baseline of the base's objects
# for the current config fragments.
base_dir() {
	echo "$RESULTS/$(lock_get BASE_COMMIT)/objs-$(cat $FRAGMENTS | sha256sum | cut -c1-16)"
}

# base_objs FILES...: compile the .c FILES that exist at the base in
# $BASE_O (a configured base tree; no kernel is linked), with the
# compiler and with sparse, and add what they print to the baseline in
# $(base_dir): "compiled" (the files), "warnings" and "sparse".  Files
# compiled before are not compiled again.  Prints nothing.
base_objs() {
	local base dir f todo=() objs=()
	base=$(lock_get BASE_COMMIT)
	dir=$(base_dir)
	mkdir -p "$dir" "$LOGS"
	touch "$dir/compiled" "$dir/warnings" "$dir/sparse"
	for f in "$@"; do
		case "$f" in *.c) ;; *) continue ;; esac
		grep -qxF "$f" "$dir/compiled" || todo+=("$f")
	done
	[ ${#todo[@]} = 0 ] && return 0
	worktree "$BASE_CHECKOUT" "$base"
	git -C "$BASE_CHECKOUT" checkout -q -f --detach "$base"
	if [ "$(cat "$BASE_O/.cpu-alloc-configured" 2>/dev/null)" != "${dir##*/}" ]; then
		info CONFIG "base ${base:0:12} in $BASE_O (objects only, no kernel)"
		configure "$BASE_CHECKOUT" "$BASE_O" "$LOGS/config-base-objs.log"
		echo "${dir##*/}" >"$BASE_O/.cpu-alloc-configured"
	fi
	for f in "${todo[@]}"; do
		# a file the series adds has no baseline: nothing to compile
		[ -f "$BASE_CHECKOUT/$f" ] || continue
		objs+=("$f")
		rm -f "$BASE_O/${f%.c}.o"
	done
	if [ ${#objs[@]} != 0 ]; then
		info BASE "compiling ${#objs[@]} files at the base for the warning baseline"
		kmake "$BASE_CHECKOUT" "$BASE_O" -j"$JOBS" -k "${objs[@]/%.c/.o}" \
			>"$LOGS/base-objs.log" 2>&1 || true
		{ cat "$dir/warnings"; diag_lines warning "$BASE_CHECKOUT" <"$LOGS/base-objs.log"; } |
			sort -u >"$dir/warnings.new"
		mv "$dir/warnings.new" "$dir/warnings"
		{ cat "$dir/sparse"; sparse_objs "$BASE_CHECKOUT" "$BASE_O" "${objs[@]}"; } |
			sort -u >"$dir/sparse.new"
		mv "$dir/sparse.new" "$dir/sparse"
	fi
	printf '%s\n' "${todo[@]}" >>"$dir/compiled"
}

# base_lines KIND: the baseline's KIND lines (warnings or sparse).
base_lines() {
	cat "$(base_dir)/$1" 2>/dev/null || true
}

# sparse_dir ID: where sparse_commit keeps its results for commit ID.
sparse_dir() {
	echo "$RESULTS/$1/sparse-$(cat $FRAGMENTS | sha256sum | cut -c1-16)"
}

# sparse_commit ID: sparse on the .c files that commit ID touches and
# the configuration builds, in $O, which must hold the build of ID
# (scripts/build.sh).  Keeps "files", "skipped" (touched, not built)
# and "lines" in $(sparse_dir ID), and compiles the same files at the
# base for the baseline (SPARSE_BASE=later: not now).  make check
# judges the result.
sparse_commit() {
	local id=$1 d f touched files
	[ "${SPARSE:-1}" = 1 ] || return 0
	[ "$(cat "$O/.cpu-alloc-built" 2>/dev/null)" = "$id" ] ||
		die "$O does not hold the build of ${id:0:12}" "run: make build REV=$id"
	d=$(sparse_dir "$id")
	mkdir -p "$d"
	mapfile -t touched < <(kgit diff-tree --no-commit-id --name-only -r --diff-filter=AM "$id" -- '*.c')
	built_objs "$O" "${touched[@]}" >"$d/files"
	for f in "${touched[@]}"; do grep -qxF "$f" "$d/files" || echo "$f"; done >"$d/skipped"
	mapfile -t files <"$d/files"
	sparse_objs "$CHECKOUT" "$O" "${files[@]}" >"$d/lines.new"
	mv "$d/lines.new" "$d/lines"
	# make bisect-check compiles the base's objects for all its
	# commits at once, after the last (SPARSE_BASE=later)
	[ "${SPARSE_BASE:-now}" = later ] || base_objs "${files[@]}"
}
