#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make bisect-check: build and boot every commit from the base to the
# head of $BRANCH, the way ktest's patchcheck does.
#
# A commit fails when its build prints a compiler warning that the base
# does not print (and checkpatch/build-warnings.ignore does not list).
# The base is not built as a kernel: the files a warning names, and the
# .c files each commit touches that the configuration builds, are
# compiled at the base in $BASE_O (objects only), and what they print
# is the baseline.  After each build
# sparse runs on the .c files the commit touches, in the same build
# directory, for make check to judge (no second checkout, no rebuild).
# Results are cached per commit id and per hash of what decides them
# (the config fragments and the init), so a re-run only does new
# commits (FRESH=1 ignores the cache).  Stops at the first failure,
# with the path of its log.
. "$(dirname "$0")/lib.sh"

[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
base=$(lock_get BASE_COMMIT)
head=$(resolve "${REV:-$BRANCH}")
kgit merge-base --is-ancestor "$base" "$head" || die "$head does not descend from the base $base"

# What decides a result besides the commit itself: the kernel config
# and the guest's checks.  The driver's own scripts are not in it (as
# ktest does not hash itself): after changing them, FRESH=1 re-runs all.
salt=$(cat "$TOP/qemu/"*.config "$TOP/qemu/init.c" "$TOP/qemu/"*.h ${CONFIG_EXTRA:-} | sha256sum | cut -c1-16)
salt="$salt-smp${SMP:-4}"
ignore=$TOP/checkpatch/build-warnings.ignore
table=$LOGS/bisect-check.txt
mkdir -p "$LOGS"

row() { printf '%-12s  %-52.52s  %7s  %6s  %s\n' "$@"; }
{
	row commit subject "build s" "boot s" verdict
	row ------------ ---------------------------------------------------- ------- ------ -------
} | tee "$table"

# The baseline is made as the commits are built: the base's lines for
# the .c files each commit touches and builds (sparse_commit), and for
# those a warning names.
row "${base:0:12}" "$(kgit log -1 --format=%s "$base")" - - "BASE (objects only)" | tee -a "$table"

fail=0
for id in $(kgit rev-list --reverse "$base..$head"); do
	short=${id:0:12}
	subj=$(kgit log -1 --format=%s "$id")
	cache=$RESULTS/$id/bisect-$salt
	if [ -f "$cache" ] && [ "${FRESH:-0}" != 1 ]; then
		# shellcheck disable=SC2046
		row "$short" "$subj" $(cat "$cache") | tee -a "$table"
		continue
	fi
	if ! REV=$id "$TOP/scripts/build.sh" >"$LOGS/bisect-step.log" 2>&1; then
		row "$short" "$subj" "-" "-" "BUILD-FAIL" | tee -a "$table"
		tail -n 20 "$LOGS/bisect-step.log" >&2
		fail=1
		break
	fi
	bs=$(cat "$RESULTS/$id/build-seconds")
	# the .c files a warning names get a baseline too
	base_objs $(cut -d: -f1 "$RESULTS/$id/warnings" | sort -u)
	new=$(comm -23 "$RESULTS/$id/warnings" <(base_lines warnings) |
		{ if [ -s "$ignore" ]; then grep -v -F -f <(grep -v '^#' "$ignore") || true; else cat; fi; })
	if [ -n "$new" ]; then
		row "$short" "$subj" "$bs" "-" "NEW-WARNINGS" | tee -a "$table"
		echo "$new" >&2
		echo "log: $LOGS/build-$short.log" >&2
		fail=1
		break
	fi
	sparse_commit "$id"
	# a fifth of the stress test per commit (about 17 s less per boot,
	# eight minutes over the series); the head's boots run all of it
	if ! STRESS_OPS=${STRESS_OPS:-200000} "$TOP/scripts/boot.sh" >"$LOGS/bisect-step.log" 2>&1; then
		row "$short" "$subj" "$bs" "-" "BOOT-FAIL" | tee -a "$table"
		cat "$LOGS/bisect-step.log" >&2
		fail=1
		break
	fi
	secs=$(sed -n 's/.* seconds=//p' "$LOGS"/boot-"$short"-*.log.verdict | tail -n1)
	echo "$bs $secs PASS" >"$cache"
	row "$short" "$subj" "$bs" "$secs" PASS | tee -a "$table"
done
echo "table: $table"
[ $fail = 0 ] || die "bisect-check stopped at the first failure" "see the log named above"
