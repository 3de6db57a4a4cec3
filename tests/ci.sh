#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make test: what CI runs (.ci/run) and the README names.
#
#  1. the driver's selftest on the fake tree (tests/run.sh), seconds;
#  2. the real thing on the pinned tree: deps, tree, export round trip,
#     bisect-check of every commit (build + QEMU boot, -smp 4), boots of
#     the head with -smp 1 and -smp 2 (maxcpus=4), a build and boot of the
#     head with qemu/debug.config (lockdep, KASAN, kmemleak, ...; -smp 2,
#     4 vCPUs on 2 host cores make the debug kernel's lock holders lose
#     their host CPU: 102 s instead of 31 s for the stress test), make
#     check, make regen,
#     make convert-report, make am-check, make mail and make send (to
#     files), make bisect of a scratch branch with a commit that
#     breaks the boot, and make bench QUICK=1 as a smoke run (it
#     asserts no figure).
# Each step is one test; the last line counts the selftest's cases and
# these steps: "N passed, N failed".  QUICK=1 runs the selftest only.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
MAKE=(make --no-print-directory -C "$TOP")
passed=0 failed=0 failures=
LOG=${WORK:-$HOME/.cache/cpu-alloc}/ci-logs
rm -rf "$LOG"
mkdir -p "$LOG"

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
"$TOP/tests/run.sh" | tee "$LOG/selftest.log"
line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$LOG/selftest.log" | tail -n1)
sp=${line%% passed*} sf=${line#*passed, } sf=${sf%% failed}
[ -n "$line" ] || { sp=0 sf=1; }

if [ "${QUICK:-0}" != 1 ]; then
	step deps "${MAKE[@]}" deps &&
	step tree "${MAKE[@]}" tree &&
	step export-round-trip export_round_trip &&
	step bisect-check "${MAKE[@]}" bisect-check && {
		step boot-smp1 "${MAKE[@]}" boot SMP=1 MAXCPUS=4
		step boot-smp2-max4 "${MAKE[@]}" boot SMP=2 MAXCPUS=4
		step boot-debug "${MAKE[@]}" build boot DEBUG=1 SMP=2 MAXCPUS=4
		step check "${MAKE[@]}" check
		[ -x "$TOP/scripts/regen.sh" ] && step regen "${MAKE[@]}" regen
		[ -x "$TOP/scripts/convert-report.sh" ] && step convert-report "${MAKE[@]}" convert-report
		step am-check "${MAKE[@]}" am-check
		step mail "${MAKE[@]}" mail
		step send "${MAKE[@]}" send
		step bisect-real "$TOP/tests/bisect-real.sh"
		step bench-quick "${MAKE[@]}" bench QUICK=1
	}
fi
echo "step logs: $LOG"
passed=$((passed + sp)) failed=$((failed + sf))
echo "ci:${failures:- all steps passed}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
