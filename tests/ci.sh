#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make test: what CI runs (.ci/run) and the README names.
#
#  1. the real thing on the pinned tree, part one: deps, tree, export
#     round trip;
#  2. then, behind everything that follows (OVERLAP=1, the default), a
#     build of the head with qemu/debug.config (lockdep, KASAN,
#     kmemleak, ...) at SCHED_IDLE (chrt --idle), in a checkout and build
#     directory of its own: it takes only the cycles that the selftest,
#     bisect-check's boots and links and the later steps leave idle;
#     beside it, the same way, make check's allmodconfig compiles
#     (WIDE=only, in checkout-wide and build-wide) and its i386 compile
#     (I386=only, in checkout-i386 and build-i386), counted as the steps
#     check-wide and check-i386 before make check, which then compiles
#     nothing again;
#  3. the driver's selftest on the fake tree (tests/run.sh);
#  4. bisect-check of every commit (build + QEMU boot, -smp 4; a commit
#     that changes no file its parent's build read is SAME, neither
#     built nor booted; sparse on
#     the files each commit touches, in the same build; the base is
#     compiled as objects only, for the warning baselines), boots of
#     the head with -smp 1 and -smp 2 (maxcpus=4), make kaslr-check
#     (three short boots of the head), then the boot of the debug
#     kernel (once its build has ended; -smp 2, 4 vCPUs on 2 host cores
#     make the debug kernel's lock holders lose their host CPU: 102 s
#     instead of 31 s for the stress test) in the background, and
#     make check and make am-check in the background too, beside make
#     regen, make convert-report, make mail and make send (to files),
#     all at nice 19; a smoke run of make
#     bench on the head alone (QUICK=1
#     BENCH_BASE=none: the module builds and runs, the report is
#     written; it asserts no figure), and make bisect of a scratch
#     branch with a commit that breaks the boot.
#
# OVERLAP=0 builds the debug kernel in its boot's step, after the
# head's other boots and before make check, leaves the allmodconfig and
# i386 compiles to make check, and runs every step alone
# (and bisect-check boots each commit before building the next).
#
# make test-all (TEST_ALL=1) adds what does not fit CI's budget: make
# cold-cost (which commits give a cold ccache a full compile: at most
# COLD_FULL_MAX), make bench at full size (the base kernel built and
# booted, against the head) and more SMP shapes (-smp 8; the debug
# kernel at -smp 4).
#
# Each step is one test; the last line counts the selftest's cases and
# these steps: "N passed, N failed".  Before it, the time of every step
# and the total; at $BUDGET seconds or past (default 3600: CI allows 5400) a
# warning names the slowest steps.  QUICK=1 runs the selftest only.
#
# FRESH=1 measures a fresh machine: a new WORK (lib.sh's default
# becomes ~/.cache/cpu-alloc-fresh, emptied first) with an empty ccache
# directory, empty caches of spatch, checkpatch and sparse runs and no
# downloaded tarball in it, so that every build, check, regen run and
# download is cold.  SELFTEST_ARGS names
# the selftest's cases to run (default: all).
TOP=$(cd "$(dirname "$0")/.." && pwd)
# the settings (WORK, FRESH, BUDGET, QUICK): scripts/lib.sh; a step's
# failure does not stop the run
. "$TOP/scripts/lib.sh"
set +e +o pipefail
MAKE=(make --no-print-directory -C "$TOP")
passed=0 failed=0 failures=
if [ "$FRESH" = 1 ]; then
	# never empty a directory that a fresh run did not make
	if [ -e "$WORK" ] && [ ! -f "$WORK/.cpu-alloc-fresh" ] && [ -n "$(ls -A "$WORK" 2>/dev/null)" ]; then
		echo "ci.sh: error: FRESH=1 would empty $WORK, which a fresh run did not make" >&2
		echo "  give it a directory of its own: make test FRESH=1 WORK=/path/to/new/dir" >&2
		exit 1
	fi
	rm -rf "$WORK"
	mkdir -p "$WORK/ccache"
	touch "$WORK/.cpu-alloc-fresh"
	mkdir -p "$WORK/spatch-cache" "$WORK/checkpatch-cache" "$WORK/sparse-cache" "$WORK/tarballs"
	export WORK CCACHE_DIR=$WORK/ccache SPATCH_CACHE=$WORK/spatch-cache \
		CHECKPATCH_CACHE=$WORK/checkpatch-cache SPARSE_CACHE=$WORK/sparse-cache AM_CACHE=$WORK/tarballs
	echo "fresh: WORK=$WORK, empty CCACHE_DIR=$CCACHE_DIR, SPATCH_CACHE=$SPATCH_CACHE," \
		"CHECKPATCH_CACHE=$CHECKPATCH_CACHE, SPARSE_CACHE=$SPARSE_CACHE and AM_CACHE=$AM_CACHE"
fi
LOG=$WORK/ci-logs
rm -rf "$LOG"
mkdir -p "$LOG"
t_start=$SECONDS

# export_round_trip: make export after make tree changes nothing in commits/.
export_round_trip() {
	"${MAKE[@]}" export || return 1
	[ -z "$(git -C "$TOP" status --porcelain -- commits/)" ] || {
		git -C "$TOP" status --short -- commits/
		return 1
	}
}

# tally NAME RC LOG: count NAME as passed (RC 0) or failed, and show
# the end of its LOG.
tally() {
	if [ "$2" = 0 ]; then
		passed=$((passed + 1))
		tail -n 4 "$3" | sed 's/^/    /'
	else
		failed=$((failed + 1))
		failures="$failures $1"
		tail -n 40 "$3" | sed 's/^/    # /'
	fi
}

# cpu_ticks VAR: VAR = the CPU time, in clock ticks, of the processes
# this (sub)shell has waited for, on every core (/proc/PID/stat: cutime
# + cstime).  Each step and job runs in a subshell of its own that reads
# it at its end.  It sets VAR rather than printing: in a command
# substitution, $BASHPID would be the substitution's own.
CLK_TCK=$(getconf CLK_TCK 2>/dev/null || echo 100)
cpu_ticks() {
	local var=$1 s
	read -r s </proc/$BASHPID/stat
	s=${s##*) }
	# shellcheck disable=SC2086
	set -- $s
	printf -v "$var" '%s' $((${14} + ${15}))
}
# step NAME CMD...: run CMD as one test, output in $LOG/NAME.log; its
# wall time in $LOG/times, its CPU time (all cores) in $LOG/cpu.
step() {
	local name=$1 t0=$SECONDS rc c1
	shift
	echo "--- $name: $*"
	# in a subshell of its own, which counts its own children only: a
	# job behind the steps that ends meanwhile is this shell's child,
	# and its CPU time would join the step's
	(
		"$@"
		rc=$?
		cpu_ticks c1
		echo "$((c1 / CLK_TCK)) $name" >>"$LOG/cpu"
		exit $rc
	) >"$LOG/$name.log" 2>&1
	rc=$?
	echo "$((SECONDS - t0)) $name" >>"$LOG/times"
	tally "$name" $rc "$LOG/$name.log"
	if [ $rc = 0 ]; then
		echo "ok - $name ($((SECONDS - t0))s)"
	else
		echo "not ok - $name ($((SECONDS - t0))s)"
	fi
	return $rc
}

# Jobs behind the other steps (OVERLAP=1), started once the tree is
# there: at SCHED_IDLE, in their own process group (not their own
# session: with the scheduler's autogroups a session gets half the CPU
# whatever its policy), output in $LOG/NAME.log, time in times-behind.
declare -A behind_pid=()
# behind_start NAME CMD...: start CMD behind the steps as job NAME.
behind_start() {
	local name=$1 idle=()
	shift
	command -v chrt >/dev/null && idle=(chrt --idle 0)
	echo "--- $name, behind the next steps${idle:+ at SCHED_IDLE}: $*"
	set -m
	(
		t0=$SECONDS
		"${idle[@]}" "$@" >"$LOG/$name.log" 2>&1
		rc=$?
		cpu_ticks c1
		echo "$((SECONDS - t0)) $name" >>"$LOG/times-behind"
		echo "$((c1 / CLK_TCK)) $name" >>"$LOG/cpu"
		exit $rc
	) </dev/null &
	behind_pid[$name]=$!
	set +m
}
# behind_wait NAME: wait for job NAME (announced with WHAT); its status.
behind_wait() {
	local pid=${behind_pid[$1]:-}
	[ -n "$pid" ] || return 0
	echo "waiting for $2 behind the other steps (log: $LOG/$1.log)"
	unset "behind_pid[$1]"
	wait "$pid"
}
# behind_stop NAME: end job NAME, if it still runs (a failed step
# before it is needed, an interrupt).
behind_stop() {
	local pid=${behind_pid[$1]:-}
	[ -n "$pid" ] || return 0
	kill -TERM -- -"$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	unset "behind_pid[$1]"
}
# running NAME: true while job NAME was started and not yet waited for.
running() { [ -n "${behind_pid[$1]:-}" ]; }

# make check's i386 and allmodconfig compiles: of every file at the
# head only (CHECK_COMMITS=head; about 25 i386 and 7 allmodconfig
# compiles of earlier commits less, for CI's time), and with make
# test-all of each commit's files at that commit too.  bisect-check
# still builds every commit with the boot config.
CHECK_COMMITS_TEST="head"
[ "${TEST_ALL:-0}" = 1 ] && CHECK_COMMITS_TEST="all"
# The debug kernel's build, in build-debug and checkout-debug.
start_debug_build() {
	[ "$OVERLAP" = 1 ] || return 0
	behind_start build-debug "${MAKE[@]}" build DEBUG=1
}
# The compiles of make check under more configurations, from the same
# start: the allmodconfig ones (WIDE=only) and the i386 one (I386=only),
# each in a checkout and build of its own (checkout-wide, build-wide,
# checkout-i386, build-i386).  The verdict of each is a step of its
# own, check-wide and check-i386, counted before make check, which then
# finds the passes recorded and compiles nothing again.
start_compile_checks() {
	[ "$OVERLAP" = 1 ] || return 0
	[ "$WIDE" = 0 ] || behind_start check-wide "${MAKE[@]}" check WIDE=only CHECK_COMMITS="$CHECK_COMMITS_TEST"
	[ "$I386" = 0 ] || behind_start check-i386 "${MAKE[@]}" check I386=only CHECK_COMMITS="$CHECK_COMMITS_TEST"
}
# wait_compile_checks: wait for them, and count each as a step.
wait_compile_checks() {
	local rc name
	for name in check-wide check-i386; do
		running $name || continue
		behind_wait $name "make check's ${name#check-} compile"
		rc=$?
		tally $name $rc "$LOG/$name.log"
		if [ $rc = 0 ]; then
			echo "ok - $name (behind)"
		else
			echo "not ok - $name (behind)"
		fi
	done
}

# descendants PID: the processes below PID, children first.  timeout
# (qemu_run) puts itself and QEMU in a process group of their own, so a
# signal to the step's group does not reach them.
descendants() {
	local c
	# shellcheck disable=SC2013
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		echo "$c"
		descendants "$c"
	done
}
# stop_behind: end what runs behind the steps (on exit or interrupt): the
# jobs behind, and the step in the background with every process below
# it (the debug boot's QEMU too, and so its NFS server, whose trap waits
# for QEMU).
stop_behind() {
	local pids pid
	behind_stop build-debug
	behind_stop check-wide
	behind_stop check-i386
	for pid in ${bg_pids[@]+"${bg_pids[@]}"}; do
		pids=$(descendants "$pid")
		# shellcheck disable=SC2086
		kill -TERM -- -"$pid" $pids 2>/dev/null
		wait "$pid" 2>/dev/null
	done
	bg_pids=() bg_names=()
}
trap stop_behind EXIT
trap "exit 130" INT
trap "exit 143" TERM HUP
# What the debug boot of make test runs: the stress test at 3/10 of its
# default size (300,000 operations: 40 s under KASAN at -smp 2; all
# 10^6 took 130 s), and test_kmem without test_kmem_memcg_deletion
# (50 s), test_kmem_kernel_stacks (33 s) and test_kmem_proc_kpagecgroup
# (20 s), which allocate no per-cpu memory of their own and which the
# head's boots at -smp 1 and -smp 2 run; test_percpu_basic and
# test_kmem_dead_cgroups, which free per-cpu memory with their cgroups,
# stay.  make test-all boots the debug kernel with all of both too
# (boot-debug-full).
DEBUG_BOOT=(DEBUG=1 SMP=2 MAXCPUS=4 STRESS_OPS=300000
	KMEM_SKIP="$KMEM_SKIP_REPEATED,test_kmem_kernel_stacks,test_kmem_proc_kpagecgroup")
# debug_boot: the boot of the debug kernel, once its build behind the
# other steps has ended (waited for by the caller, wait_debug_build: a
# process can wait only for its own children, and this one runs in the
# background); with OVERLAP=0, its build and boot.
debug_boot() {
	if [ "$OVERLAP" != 1 ]; then
		"${MAKE[@]}" build boot "${DEBUG_BOOT[@]}"
		return
	fi
	cat "$LOG/build-debug.log"
	[ "$debug_rc" = 0 ] || { echo "the debug build failed (status $debug_rc): $LOG/build-debug.log"; return 1; }
	"${MAKE[@]}" boot "${DEBUG_BOOT[@]}"
}
# wait_debug_build: wait for the debug build behind the other steps;
# its status in debug_rc.
debug_rc=
wait_debug_build() {
	running build-debug || return 0
	behind_wait build-debug "the debug build"
	debug_rc=$?
}
# The steps beside a step in the background: at nice 19 (in this
# session: with the scheduler's autogroups, a nice value counts only
# against processes of the same session).  make check runs checkpatch
# in JOBS processes, sparse and a compile; the others mostly one process
# (spatch, git am): the guest, at nice 0, still gets the CPU it wants.
NICE=(nice -n 19)
# bg_start NAME CMD...: run CMD as step NAME in the background, its
# lines kept until bg_finish; with OVERLAP=0, at once.  Several may run:
# after bisect-check the steps are mostly one process each (make check's
# per-commit compiles, spatch, git am), which left a core idle on a
# 2-core machine when they ran one after another.
bg_names=() bg_pids=()
bg_start() {
	if [ "$OVERLAP" != 1 ]; then
		step "$@"
		return
	fi
	echo "--- $1: in the background, beside the steps up to the next line of it"
	# its own process group, for stop_behind
	set -m
	(step "$@") >"$LOG/$1.step" 2>&1 </dev/null &
	bg_pids+=($!) bg_names+=("$1")
	set +m
}
# bg_finish: wait for the steps in the background; count them and print
# their lines, in the order they were started.
bg_finish() {
	local i rc
	for i in ${bg_pids[@]+"${!bg_pids[@]}"}; do
		wait "${bg_pids[i]}"
		rc=$?
		cat "$LOG/${bg_names[i]}.step"
		if [ $rc = 0 ]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			failures="$failures ${bg_names[i]}"
		fi
	done
	bg_pids=() bg_names=()
}

ready=0
if [ "$QUICK" != 1 ]; then
	step deps "${MAKE[@]}" deps &&
		step tree "${MAKE[@]}" tree &&
		step export-round-trip export_round_trip &&
		ready=1 && start_debug_build && start_compile_checks
fi

# The selftest: its own counts join ours.
t0=$SECONDS c1=
# shellcheck disable=SC2086
("$TOP/tests/run.sh" ${SELFTEST_ARGS:-}; cpu_ticks c1; echo "$((c1 / CLK_TCK)) selftest" >>"$LOG/cpu") |
	tee "$LOG/selftest.log"
echo "$((SECONDS - t0)) selftest" >>"$LOG/times"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG/selftest.log" | tail -n1)
sp=${line%% passed*} sf=${line#*passed, } sf=${sf%% failed}
[ -n "$line" ] || { sp=0 sf=1; }

if [ $ready = 1 ]; then
	step bisect-check "${MAKE[@]}" bisect-check && {
		step boot-smp1 "${MAKE[@]}" boot SMP=1 MAXCPUS=4
		step boot-smp2-max4 "${MAKE[@]}" boot SMP=2 MAXCPUS=4
		step kaslr-check "${MAKE[@]}" kaslr-check SMP=2 MAXCPUS=2
		# the boot of the debug kernel (its build behind had the idle
		# cycles of every step before) beside the steps that follow,
		# which run at nice 19 and take what the guest leaves idle
		# (see NICE)
		wait_debug_build
		bg_start boot-debug debug_boot
		wait_compile_checks
		# make check (checkpatch, sparse's verdicts, the probes)
		# beside the chain of regen to send
		bg_start check "${NICE[@]}" "${MAKE[@]}" check CHECK_COMMITS="$CHECK_COMMITS_TEST"
		# make am-check (its own repository of imported tarballs;
		# mostly one process) beside regen to send, which are mostly
		# one process each too: once the debug boot has ended, a
		# chain of them alone left a core idle
		bg_start am-check "${NICE[@]}" "${MAKE[@]}" am-check
		[ -x "$TOP/scripts/regen.sh" ] && step regen "${NICE[@]}" "${MAKE[@]}" regen
		[ -x "$TOP/scripts/convert-report.sh" ] && step convert-report "${NICE[@]}" "${MAKE[@]}" convert-report
		step mail "${NICE[@]}" "${MAKE[@]}" mail
		step send "${NICE[@]}" "${MAKE[@]}" send
		bg_finish
		# the bench smoke run boots the head's build in $O: before
		# bisect-real, which leaves a scratch commit's build there
		step bench-smoke "${MAKE[@]}" bench QUICK=1 BENCH_BASE=none
		step bisect-real "$TOP/tests/bisect-real.sh"
		if [ "${TEST_ALL:-0}" = 1 ]; then
			step cold-cost "${MAKE[@]}" cold-cost
			step boot-smp8 "${MAKE[@]}" boot SMP=8 MAXCPUS=8
			# 4 vCPUs on a 2-core host: a lock is handed to vCPUs the
			# host does not run.  The stress test gets a time limit,
			# and test_kmem's 100 cgroups of dentry-allocating
			# threads on every CPU (45 s with 2 vCPUs, not done
			# after 12 minutes with 4) are skipped
			step boot-debug-smp4 "${MAKE[@]}" boot DEBUG=1 SMP=4 MAXCPUS=4 STRESS_SECS=120 BOOT_TIMEOUT=1500 \
				KMEM_SKIP="$KMEM_SKIP_REPEATED"
			# what make test's debug boot leaves out: 10^6 stress
			# operations and test_kmem_memcg_deletion under KASAN,
			# lockdep and kmemleak
			step boot-debug-full "${MAKE[@]}" boot DEBUG=1 SMP=2 MAXCPUS=4
			step bench "${MAKE[@]}" bench QUICK=0
		fi
	}
	behind_stop build-debug
	behind_stop check-wide
	behind_stop check-i386
fi
echo "step logs: $LOG"
total=$((SECONDS - t_start))
# (the CPU seconds of every core: what a step costs the others beside it)
echo "step times (s): wall, CPU"
cpu_of() { awk -v n="$1" '$2 == n { print $1; exit }' "$LOG/cpu" 2>/dev/null; }
sort -rn "$LOG/times" | while read -r secs name; do
	printf '  %6d  %6s  %s\n' "$secs" "$(cpu_of "$name")" "$name"
done
[ -f "$LOG/times-behind" ] && while read -r secs name; do
	printf '  %6d  %6s  %s, beside the steps above\n' "$secs" "$(cpu_of "$name")" "$name"
done <"$LOG/times-behind"
printf '  %6d  %6s  total (%dm%02ds)\n' "$total" "$(awk '{ c += $1 } END { print c + 0 }' "$LOG/cpu" 2>/dev/null)" \
	$((total / 60)) $((total % 60))
if [ "$total" -ge "$BUDGET" ]; then
	echo "ci.sh: warning: make test took ${total}s, over its budget of ${BUDGET}s (CI stops at 5400s)." \
		"Slowest steps: $(sort -rn "$LOG/times" | head -n 3 | awk '{printf "%s%s %ds", (NR > 1 ? ", " : ""), $2, $1}')"
fi
passed=$((passed + sp)) failed=$((failed + sf))
echo "ci:${failures:- all steps passed}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
