# SPDX-License-Identifier: GPL-2.0-only
# The case runner of the driver's selftest suites (tests/run.sh,
# tests/am-check.sh).  Sourced, never run.

passed=0 failed=0 failures=

# run_cases PREPARE NAME...: each case test_NAME in a directory of its
# own, $T under $TMP, after PREPARE (a function, or true), in a subshell
# with set -u.  Prints "ok - NAME", or "not ok - NAME" and the last 30
# lines of what it printed; counts in passed, failed and failures.
run_cases() {
	local prepare=$1 n
	shift
	for n in "$@"; do
		T=$TMP/$n
		mkdir -p "$T"
		if (set -u; "$prepare" && "test_$n") >"$T.log" 2>&1; then
			passed=$((passed + 1))
			echo "ok - $n"
		else
			failed=$((failed + 1))
			failures="$failures $n"
			echo "not ok - $n"
			sed 's/^/    # /' "$T.log" | tail -n 30
		fi
		rm -rf "$T"
	done
}
