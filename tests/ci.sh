#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make test: what CI runs (.ci/run) and the README names.
#
#  1. the driver's selftest on the fake tree (tests/run.sh), seconds;
#  2. the real thing on the pinned tree: deps, tree, export round trip,
#     bisect-check of every commit (build + QEMU boot, -smp 4; sparse on
#     the files each commit touches, in the same build; the base is
#     compiled as objects only, for the warning baselines), boots of
#     the head with -smp 1 and -smp 2 (maxcpus=4), make kaslr-check
#     (three short boots of the head), a build and boot of the
#     head with qemu/debug.config (lockdep, KASAN, kmemleak, ...; -smp 2,
#     4 vCPUs on 2 host cores make the debug kernel's lock holders lose
#     their host CPU: 102 s instead of 31 s for the stress test), make
#     check, make cold-cost (which commits give a cold ccache a full
#     compile: at most COLD_FULL_MAX), make regen, make convert-report,
#     make am-check, make mail
#     and make send (to files), make bisect of a scratch branch with a
#     commit that breaks the boot, and a smoke run of make bench on the
#     head alone (QUICK=1 BENCH_BASE=none: the module builds and runs,
#     the report is written; it asserts no figure).
#
# make test-all (TEST_ALL=1) adds what does not fit CI's budget: make
# bench at full size (the base kernel built and booted, against the
# head) and more SMP shapes (-smp 8; the debug kernel at -smp 4).
#
# Each step is one test; the last line counts the selftest's cases and
# these steps: "N passed, N failed".  Before it, the time of every step
# and the total; past $BUDGET seconds (default 3600: CI allows 5400) a
# warning names the slowest steps.  QUICK=1 runs the selftest only.
#
# FRESH=1 measures a fresh machine: a new WORK (lib.sh's default
# becomes ~/.cache/cpu-alloc-fresh, emptied first) and an empty ccache
# directory in it, so that every build is cold.  SELFTEST_ARGS names
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
	export WORK CCACHE_DIR=$WORK/ccache
	echo "fresh: WORK=$WORK, empty CCACHE_DIR=$CCACHE_DIR"
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

# step NAME CMD...: run CMD as one test, output in $LOG/NAME.log.
step() {
	local name=$1 t0=$SECONDS rc
	shift
	echo "--- $name: $*"
	"$@" >"$LOG/$name.log" 2>&1
	rc=$?
	echo "$((SECONDS - t0)) $name" >>"$LOG/times"
	if [ $rc = 0 ]; then
		passed=$((passed + 1))
		tail -n 4 "$LOG/$name.log" | sed 's/^/    /'
		echo "ok - $name ($((SECONDS - t0))s)"
	else
		failed=$((failed + 1))
		failures="$failures $name"
		tail -n 40 "$LOG/$name.log" | sed 's/^/    # /'
		echo "not ok - $name ($((SECONDS - t0))s)"
	fi
	return $rc
}

# The selftest: its own counts join ours.
t0=$SECONDS
# shellcheck disable=SC2086
"$TOP/tests/run.sh" ${SELFTEST_ARGS:-} | tee "$LOG/selftest.log"
echo "$((SECONDS - t0)) selftest" >>"$LOG/times"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG/selftest.log" | tail -n1)
sp=${line%% passed*} sf=${line#*passed, } sf=${sf%% failed}
[ -n "$line" ] || { sp=0 sf=1; }

if [ "$QUICK" != 1 ]; then
	step deps "${MAKE[@]}" deps &&
	step tree "${MAKE[@]}" tree &&
	step export-round-trip export_round_trip &&
	step bisect-check "${MAKE[@]}" bisect-check && {
		step boot-smp1 "${MAKE[@]}" boot SMP=1 MAXCPUS=4
		step boot-smp2-max4 "${MAKE[@]}" boot SMP=2 MAXCPUS=4
		step kaslr-check "${MAKE[@]}" kaslr-check SMP=2 MAXCPUS=2
		step boot-debug "${MAKE[@]}" build boot DEBUG=1 SMP=2 MAXCPUS=4
		step check "${MAKE[@]}" check
		step cold-cost "${MAKE[@]}" cold-cost
		[ -x "$TOP/scripts/regen.sh" ] && step regen "${MAKE[@]}" regen
		[ -x "$TOP/scripts/convert-report.sh" ] && step convert-report "${MAKE[@]}" convert-report
		step am-check "${MAKE[@]}" am-check
		step mail "${MAKE[@]}" mail
		step send "${MAKE[@]}" send
		# the bench smoke run boots the head's build in $O: before
		# bisect-real, which leaves a scratch commit's build there
		step bench-smoke "${MAKE[@]}" bench QUICK=1 BENCH_BASE=none
		step bisect-real "$TOP/tests/bisect-real.sh"
		if [ "${TEST_ALL:-0}" = 1 ]; then
			step boot-smp8 "${MAKE[@]}" boot SMP=8 MAXCPUS=8
			step boot-debug-smp4 "${MAKE[@]}" boot DEBUG=1 SMP=4 MAXCPUS=4
			step bench "${MAKE[@]}" bench QUICK=0
		fi
	}
fi
echo "step logs: $LOG"
total=$((SECONDS - t_start))
echo "step times (s):"
sort -rn "$LOG/times" | awk '{printf "  %6d  %s\n", $1, $2}'
printf '  %6d  total (%dm%02ds)\n' "$total" $((total / 60)) $((total % 60))
if [ "$total" -gt "$BUDGET" ]; then
	echo "ci.sh: warning: make test took ${total}s, over its budget of ${BUDGET}s (CI stops at 5400s)." \
		"Slowest steps: $(sort -rn "$LOG/times" | head -n 3 | awk '{printf "%s%s %ds", (NR > 1 ? ", " : ""), $2, $1}')"
fi
passed=$((passed + sp)) failed=$((failed + sf))
echo "ci:${failures:- all steps passed}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
