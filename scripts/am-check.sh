#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make am-check: commits/*.patch apply with plain `git am` onto a fresh
# import of the pinned base, and the result is the branch's tree.
#
# AM_ALSO="6.1.176-1 ..." also tries other linux-source-6.1 versions
# that Debian's archive still has (downloaded with apt-get download into
# $WORK/am-check, not installed).  Debian ships no plain upstream 6.1.y
# tree; another Debian 6.1.y is the nearest thing (see CONTRIBUTING.md).
. "$(dirname "$0")/lib.sh"

dir=$WORK/am-check
base=$(lock_get BASE_COMMIT)
mkdir -p "$dir"
fail=0
patches=("$COMMITS"/*.patch)
[ -e "${patches[0]}" ] || { info AM "no patches in commits/: nothing to apply"; exit 0; }

# am_onto DIR LABEL: git am the series onto the tree in DIR.
am_onto() {
	local d=$1 label=$2
	if git -C "$d" am -q "${patches[@]}" >"$dir/am-$label.log" 2>&1; then
		info OK "git am onto $label: ${#patches[@]} patches"
		return 0
	fi
	local at
	at=$(sed -n 's/^Patch failed at [0-9]* //p' "$dir/am-$label.log" | head -n1)
	info FAIL "git am onto $label stops at: ${at:-?} (log: $dir/am-$label.log)"
	git -C "$d" am --abort >/dev/null 2>&1 || true
	return 1
}

rm -rf "$dir/linux"
info IMPORT "fresh base in $dir/linux"
id=$("$TOP/scripts/tree.sh" import-only "$dir/linux" | tail -n1)
[ "$id" = "$base" ] || die "a fresh import gives $id, but kernel-base.lock says $base" "run: make relock"
if am_onto "$dir/linux" "base-$(lock_get VERSION)"; then
	if [ -d "$SRC/.git" ] && kgit rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null; then
		# The same tree as the branch, if the branch is what commits/ holds.
		if "$TOP/scripts/export.sh" --compare; then
			git -C "$dir/linux" fetch -q "$SRC" "$BRANCH"
			[ "$(git -C "$dir/linux" rev-parse 'HEAD^{tree}')" = "$(git -C "$dir/linux" rev-parse 'FETCH_HEAD^{tree}')" ] ||
				{ info FAIL "the applied tree differs from branch $BRANCH"; fail=1; }
		fi
	fi
else
	fail=1
fi

for v in ${AM_ALSO:-}; do
	d=$dir/$v
	rm -rf "$d" && mkdir -p "$d"
	info APT "download $(lock_get PACKAGE)=$v"
	if ! (cd "$d" && apt-get download -q "$(lock_get PACKAGE)=$v" >/dev/null 2>&1); then
		info FAIL "$(lock_get PACKAGE) $v is not in the archive (apt-cache policy $(lock_get PACKAGE))"
		fail=1
		continue
	fi
	dpkg-deb -x "$d"/*.deb "$d/pkg"
	tarball=$(ls "$d"/pkg/usr/src/*.tar.xz)
	tar -C "$d" -xf "$tarball"
	t=$(ls -d "$d"/linux-source-*/)
	git -C "$t" init -q && git -C "$t" add -f -A . &&
		git -C "$t" -c user.name=am-check -c user.email=am-check@localhost commit -q -m "$v"
	am_onto "$t" "$v" || fail=1
done
[ $fail = 0 ] || die "the series does not apply everywhere it should" "logs: $dir/am-*.log"
