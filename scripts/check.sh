#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make check: checkpatch.pl and sparse on the series; only what is new
# fails.
#
# checkpatch: every commits/*.patch, with the flags of
# checkpatch/checkpatch.flags.  An ERROR or WARNING fails unless
# checkpatch/checkpatch.ignore lists its type for that patch; CHECKs
# (--strict) are reported and counted, not fatal.
#
# sparse: for each commit, the .c files it touches that the configuration
# builds are checked with C=2 at the commit (in $O, right after its
# build: make bisect-check does this as it goes, and make check builds
# a commit bisect-check has not done) and at the base (objects only, in
# $BASE_O).  A sparse warning that the base does not print (and
# checkpatch/sparse.ignore does not list) fails.  SPARSE=0 skips this
# half.
. "$(dirname "$0")/lib.sh"

[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
cp=$SRC/scripts/checkpatch.pl
[ -x "$cp" ] || die "no $cp" "run: make tree"
base=$(lock_get BASE_COMMIT)
mkdir -p "$LOGS"
mapfile -t flags < <(grep -v -e '^#' -e '^$' "$TOP/checkpatch/checkpatch.flags")
fail=0

# ignored_types PATCH: the checkpatch types checkpatch.ignore allows for PATCH.
ignored_types() {
	local glob type _
	while read -r glob type _; do
		case "$glob" in '#'*|'') continue ;; esac
		# shellcheck disable=SC2254
		case "$1" in $glob) echo "$type" ;; esac
	done <"$TOP/checkpatch/checkpatch.ignore"
}

np=0
for p in "$COMMITS"/*.patch; do
	[ -e "$p" ] || break
	np=$((np + 1))
	name=${p##*/}
	out=$LOGS/checkpatch-${name%.patch}.txt
	(cd "$SRC" && "$cp" "${flags[@]}" "$p") >"$out" 2>&1 || true
	ign=$(ignored_types "$name" | sort -u)
	bad=$(grep -E ': (ERROR|WARNING):[A-Z_]+:' "$out" | while IFS= read -r l; do
		t=$(echo "$l" | sed -E 's/.*: (ERROR|WARNING):([A-Z_]+):.*/\2/')
		echo "$ign" | grep -qxF "$t" || echo "$l"
	done || true)
	nchk=$(grep -c ': CHECK:' "$out" || true)
	if [ -n "$bad" ]; then
		info FAIL "checkpatch $name"
		echo "$bad" | sed 's/^/    /'
		fail=1
	else
		info OK "checkpatch $name ($nchk checks)"
	fi
done
[ $np = 0 ] && info OK "checkpatch: no patches in commits/"

if [ "${SPARSE:-1}" = 1 ] && [ $np -gt 0 ]; then
	command -v sparse >/dev/null || die "sparse is not installed" "run: make deps"
	lock_dir "$CHECKOUT"
	for id in $(kgit rev-list --reverse "$base..$BRANCH"); do
		short=${id:0:12}
		d=$(sparse_dir "$id")
		# make bisect-check ran sparse after its build of the commit;
		# otherwise the commit is built here (ccache makes that cheap)
		if [ ! -f "$d/lines" ]; then
			REV=$id "$TOP/scripts/build.sh" >"$LOGS/check-build-$short.log" 2>&1 || {
				tail -n 20 "$LOGS/check-build-$short.log" >&2
				die "cannot build $short for sparse" "log: $LOGS/check-build-$short.log"
			}
			sparse_commit "$id"
		fi
		# Only what this configuration builds: sparse on a file the
		# config leaves out checks nonsense (mm/kmemleak.c without
		# DEBUG_KMEMLEAK redefines the header's stubs).
		[ -s "$d/skipped" ] &&
			info SKIP "sparse $short: $(tr '\n' ' ' <"$d/skipped")not built by this configuration"
		if [ ! -s "$d/files" ]; then
			info OK "sparse $short: no built .c file touched"
			continue
		fi
		mapfile -t files <"$d/files"
		base_objs "${files[@]}"
		cp "$d/lines" "$LOGS/sparse-$short.txt"
		new=$(comm -23 "$d/lines" <(base_lines sparse) |
			grep -v -F -f <(grep -v '^#' "$TOP/checkpatch/sparse.ignore"; echo '#none#') || true)
		if [ -n "$new" ]; then
			info FAIL "sparse $short: new warnings in ${files[*]}"
			echo "$new" | sed 's/^/    /'
			fail=1
		else
			info OK "sparse $short: ${#files[@]} files, no new warnings"
		fi
	done
fi
[ $fail = 0 ] || die "make check found new warnings" "logs: $LOGS/checkpatch-*.txt $LOGS/sparse-*.txt"
info CHECK "clean"
