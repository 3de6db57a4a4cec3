#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The real-kernel test of make bisect: on a scratch branch, the series
# head plus a commit that panics in kernel_init() plus a harmless one
# after it.  make bisect GOOD=<head> BAD=<scratch> must name the panic
# commit.  The commits are made with git plumbing, so the work tree is
# not touched; only one commit needs a build (init/main.c and a relink).
# The settings (WORK, SRC, BRANCH): scripts/lib.sh.
. "$(dirname "$0")/../scripts/lib.sh"
g() { git -C "$SRC" "$@"; }
export GIT_AUTHOR_NAME=selftest GIT_AUTHOR_EMAIL=selftest@localhost
export GIT_COMMITTER_NAME=selftest GIT_COMMITTER_EMAIL=selftest@localhost
export GIT_AUTHOR_DATE=@1700000000 GIT_COMMITTER_DATE=@1700000000

head=$(g rev-parse "$BRANCH")
idx=$(mktemp)
trap 'rm -f "$idx"' EXIT
# commit_edit PARENT PATH SED MSG: PARENT with PATH edited by SED.
commit_edit() {
	local blob
	blob=$(g show "$1:$2" | sed "$3" | g hash-object -w --stdin)
	GIT_INDEX_FILE=$idx g read-tree "$1"
	GIT_INDEX_FILE=$idx g update-index --cacheinfo "100644,$blob,$2"
	echo "$4" | g commit-tree "$(GIT_INDEX_FILE=$idx g write-tree)" -p "$1"
}
bad1=$(commit_edit "$head" init/main.c \
	's/^\tkernel_init_freeable();$/&\n\tpanic("bisect selftest: this commit breaks the boot");/' \
	"init: panic in kernel_init (bisect selftest)")
[ "$(g diff --stat "$head" "$bad1" | wc -l)" -gt 1 ] || { echo "the panic was not inserted"; exit 1; }
bad2=$(commit_edit "$bad1" README 's/^Linux kernel$/Linux kernel (bisect selftest)/' "README: a harmless change (bisect selftest)")
g branch -f bisect-selftest "$bad2"

# the allocator's stress test is not what is tested here: skip it
out=$(STRESS_OPS=0 make --no-print-directory -C "$TOP" bisect GOOD="$head" BAD=bisect-selftest 2>&1) || { echo "$out"; exit 1; }
echo "$out"
echo "$out" | grep -qx "first bad commit: $bad1" || { echo "make bisect did not name $bad1"; exit 1; }
g branch -D bisect-selftest >/dev/null
echo "bisect-real: make bisect named the panic commit ${bad1:0:12}"
