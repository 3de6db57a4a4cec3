#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make export: write the branch $BRANCH of the work tree back to commits/.
#
# One file per commit, by git format-patch with every option that could
# vary pinned down: --zero-commit, --no-signature, -k --no-numbered,
# --full-index, no user configuration.  The NNNN- prefix of the file
# names is the only record of the order.  The same branch always gives
# the same bytes, so a second export changes nothing.
#
#   export.sh            rewrite commits/ (stale files removed)
#   export.sh --compare  exit 1 if commits/ differs from the branch
#   export.sh --to DIR   write into DIR instead
. "$(dirname "$0")/lib.sh"

mode=write
dest=$COMMITS
case "${1:-}" in
--compare) mode=compare ;;
--to) dest=$2 ;;
esac

[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
base=$(lock_get BASE_COMMIT)
kgit rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null || die "no branch $BRANCH in $SRC" "run: make tree"
kgit merge-base --is-ancestor "$base" "$BRANCH" ||
	die "branch $BRANCH does not descend from the base $base"
[ "$mode" = write ] && am_in_progress && die "a git am is stopped in $SRC" "finish it first: git -C $SRC am --continue (or --abort)"
[ "$mode" = write ] && [ "$(kgit rev-parse HEAD)" = "$(kgit rev-parse "$BRANCH")" ] && tree_dirty &&
	warn "the work tree has uncommitted changes; only commits are exported"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/export.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
	git -C "$SRC" -c core.abbrev=12 -c diff.noprefix=false -c diff.mnemonicPrefix=false \
	-c diff.renames=true -c diff.algorithm=myers -c format.coverLetter=false \
	format-patch -q --zero-commit --no-signature -k --no-numbered --full-index \
	--no-cover-letter --no-thread --no-color -o "$tmp" "$base..$BRANCH" >/dev/null

if [ "$mode" = compare ]; then
	a=$(cd "$tmp" && ls) b=$(cd "$COMMITS" 2>/dev/null && ls -- *.patch 2>/dev/null || true)
	[ "$a" = "$b" ] || exit 1
	for f in $a; do cmp -s "$tmp/$f" "$COMMITS/$f" || exit 1; done
	exit 0
fi

mkdir -p "$dest"
changed=0
for f in "$dest"/*.patch; do
	[ -e "$f" ] || continue
	[ -e "$tmp/${f##*/}" ] || { rm -f "$f"; info RM "${f#$TOP/}"; changed=$((changed + 1)); }
done
for f in "$tmp"/*.patch; do
	[ -e "$f" ] || continue
	t=$dest/${f##*/}
	cmp -s "$f" "$t" && continue
	cp "$f" "$t"
	info EXPORT "${t#$TOP/}"
	changed=$((changed + 1))
done
n=$(ls "$tmp" | wc -l)
info EXPORT "$n commits, $changed files changed in ${dest#$TOP/}"
