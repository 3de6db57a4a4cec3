#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make bisect GOOD=<rev> BAD=<rev>: git bisect run, with the build and
# QEMU boot verdict as the test, in the scratch checkout $CHECKOUT (the
# hacking work tree $SRC is left alone).  Prints the first bad commit.
#
# The rule for builds: a commit that does not build is skipped (exit
# 125), since what is bisected is a boot failure.  BISECT_BUILD=1 counts
# a build failure as bad instead, to bisect a build breakage.
. "$(dirname "$0")/lib.sh"

case "${1:-}" in
--step)
	# One step of git bisect run: 0 good, 1 bad, 125 skip.
	rev=$(git -C "$CHECKOUT" rev-parse HEAD)
	if ! REV=$rev "$TOP/scripts/build.sh"; then
		[ "${BISECT_BUILD:-0}" = 1 ] && exit 1
		echo "bisect: ${rev:0:12} does not build: skipped (125)"
		exit 125
	fi
	"$TOP/scripts/boot.sh" && exit 0
	exit 1
	;;
esac

[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
[ -n "${GOOD:-}" ] && [ -n "${BAD:-}" ] || die "make bisect needs GOOD= and BAD=" \
	"e.g.: make bisect GOOD=base BAD=$BRANCH"
good=$(resolve "$GOOD")
bad=$(resolve "$BAD")
[ "$good" != "$bad" ] || die "GOOD and BAD are the same commit"
kgit merge-base --is-ancestor "$good" "$bad" ||
	die "GOOD ($GOOD) is not an ancestor of BAD ($BAD)" "git bisect needs good..bad on one line of history"
if [ "${FORCE:-0}" != 1 ]; then
	tree_dirty && die "the work tree $SRC has uncommitted changes" \
		"commit and run make export first (or FORCE=1 to bisect the commits as they are)"
	if kgit rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null && ! "$TOP/scripts/export.sh" --compare; then
		die "branch $BRANCH has commits that are not exported to commits/" \
		    "run: make export (or FORCE=1 to bisect anyway)"
	fi
fi

worktree "$CHECKOUT" "$bad"
git -C "$CHECKOUT" bisect reset -q >/dev/null 2>&1 || true
mkdir -p "$LOGS"
log=$LOGS/bisect.log
info BISECT "good $(kgit log -1 --format='%h %s' "$good")"
info BISECT "bad  $(kgit log -1 --format='%h %s' "$bad")"
git -C "$CHECKOUT" bisect start "$bad" "$good" >"$log" 2>&1
set +e
git -C "$CHECKOUT" bisect run "$TOP/scripts/bisect.sh" --step >>"$log" 2>&1
rc=$?
set -e
first=$(sed -n 's/^\([0-9a-f]\{40\}\) is the first bad commit$/\1/p' "$log" | tail -n1)
git -C "$CHECKOUT" bisect log >"$LOGS/bisect-steps.txt" 2>/dev/null || true
git -C "$CHECKOUT" bisect reset -q >/dev/null 2>&1 || true
if [ -z "$first" ]; then
	tail -n 20 "$log" >&2
	die "git bisect run found no first bad commit (exit $rc)" \
	    "maybe only skipped commits are left; log: $log, steps: $LOGS/bisect-steps.txt"
fi
info FOUND "first bad commit: $(kgit log -1 --format='%H %s' "$first")"
echo "first bad commit: $first"
info LOG "$log"
