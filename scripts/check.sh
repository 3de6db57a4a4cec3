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
# builds are checked with C=2 at the commit and at the base, in $O.  A
# sparse warning that the base does not print for that file (and
# checkpatch/sparse.ignore does not list) fails.  SPARSE=0 skips this half.
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

# sparse_files ID FILES...: "file: message" lines of sparse at commit ID.
sparse_files() {
	local id=$1
	shift
	git -C "$CHECKOUT" checkout -q -f --detach "$id"
	local objs=() f
	for f in "$@"; do
		[ -f "$CHECKOUT/$f" ] && objs+=("${f%.c}.o")
	done
	[ ${#objs[@]} = 0 ] && return 0
	make -C "$CHECKOUT" O="$O" C=2 CHECK="sparse" -j"${JOBS:-2}" -k "${objs[@]}" 2>&1 |
		grep -aE '^[^ ]+:[0-9]+:[0-9]+: (warning|error): ' |
		sed -E 's/^([^:]+):[0-9]+:[0-9]+: /\1: /' | sort -u || true
}

if [ "${SPARSE:-1}" = 1 ] && [ $np -gt 0 ]; then
	command -v sparse >/dev/null || die "sparse is not installed" "run: make deps"
	lock_dir "$CHECKOUT"
	# the head's objects tell which files the configuration builds
	REV=$BRANCH "$TOP/scripts/build.sh"
	for id in $(kgit rev-list --reverse "$base..$BRANCH"); do
		short=${id:0:12}
		mapfile -t touched < <(kgit diff-tree --no-commit-id --name-only -r --diff-filter=AM "$id" -- '*.c')
		# Only what this configuration builds: sparse on a file the
		# config leaves out checks nonsense (mm/kmemleak.c without
		# DEBUG_KMEMLEAK redefines the header's stubs).
		files=() skipped=()
		for f in "${touched[@]}"; do
			if [ -f "$O/${f%.c}.o" ]; then files+=("$f"); else skipped+=("$f"); fi
		done
		[ ${#skipped[@]} = 0 ] ||
			info SKIP "sparse $short: ${skipped[*]} not built by this configuration"
		if [ ${#files[@]} = 0 ]; then
			info OK "sparse $short: no built .c file touched"
			continue
		fi
		sparse_files "$base" "${files[@]}" >"$LOGS/sparse-base-$short.txt"
		sparse_files "$id" "${files[@]}" >"$LOGS/sparse-$short.txt"
		new=$(comm -23 "$LOGS/sparse-$short.txt" "$LOGS/sparse-base-$short.txt" |
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
