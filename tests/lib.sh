# SPDX-License-Identifier: GPL-2.0-only
# The case runner of the driver's selftest suites (tests/run.sh,
# tests/am-check.sh).  Sourced, never run.

passed=0 failed=0 failures=

# run_cases PREPARE NAME...: each case test_NAME in a directory of its
# own, $T under $TMP, after PREPARE (a function, or true), in a subshell
# with set -u.  Prints "ok - NAME", or "not ok - NAME" and the last 30
# lines of what it printed, in the order given; counts in passed,
# failed and failures.  slowest_cases then names the slowest.
#
# SELFTEST_JOBS cases run at once (default: the number of CPUs).  The
# cases share nothing but $TMP's read-only files: each has its own
# repository copy, work directory and fake tree, and the fake NFS
# server listens on no port.  SELFTEST_JOBS=1 runs them one by one.
run_cases() {
	local prepare=$1 jobs=${SELFTEST_JOBS:-$(nproc)} next=0 i
	shift
	local -a names=("$@")
	[[ $jobs =~ ^[1-9][0-9]*$ ]] || jobs=1
	for ((i = 0; i < ${#names[@]}; i++)); do
		T=$TMP/${names[i]}
		mkdir -p "$T"
		(
			s=$SECONDS
			(set -u; "$prepare" && "test_${names[i]}") >"$T.log" 2>&1
			rc=$?
			echo "$((SECONDS - s)) ${names[i]}" >"$T.secs"
			echo $rc >"$T.rc"
		) &
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
			wait -n
			report_done
		done
	done
	wait
	report_done
}

# report_done: report, in order, the cases from names[next] on that
# have ended (run_cases' locals).
report_done() {
	local n
	while ((next < ${#names[@]})); do
		n=${names[next]}
		[ -f "$TMP/$n.rc" ] || return 0
		if [ "$(cat "$TMP/$n.rc")" = 0 ]; then
			passed=$((passed + 1))
			echo "ok - $n"
		else
			failed=$((failed + 1))
			failures="$failures $n"
			echo "not ok - $n"
			sed 's/^/    # /' "$TMP/$n.log" | tail -n 30
		fi
		rm -rf "${TMP:?}/$n"
		cat "$TMP/$n.secs" >>"$TMP/case-seconds"
		next=$((next + 1))
	done
}

# slowest_cases [N]: "slowest: NAME Ss, ..." for the N (5) cases of
# run_cases that took longest, where the selftest's time goes.
slowest_cases() {
	[ -s "$TMP/case-seconds" ] || return 0
	echo "slowest: $(sort -rn "$TMP/case-seconds" | head -n "${1:-5}" | awk '{printf "%s%s %ss", (NR > 1 ? ", " : ""), $2, $1}')"
}
