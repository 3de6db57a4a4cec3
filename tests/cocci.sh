#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The selftest of the Coccinelle engine (coccinelle/lib/): no kernel
# tree, only spatch and python3; it takes seconds.
#
#   tests/cocci.sh [--update] [NAME...]
#
# - the unit tests of coccinelle/lib/cpu_alloc.py
#   (tests/cocci/test_cpu_alloc.py);
# - "parse NAME.cocci": every coccinelle/*.cocci parses, with the
#   engine it includes (its configuration is run by the unit tests);
# - one case per directory tests/cocci/NAME/: the test conversion
#   tests/cocci/demo.cocci runs in place on a copy of the directory's .c
#   and .h files, from coccinelle/ with the "// Options:" of its header
#   as scripts/regen.sh runs a conversion (but once for all the files,
#   with --dir: each file is still transformed on its own); the result,
#   as "diff -u" of each file, must be NAME/expected.patch.  If
#   NAME/expected.report exists, the output of -D report on the same
#   files, sorted, paths relative to NAME/, must be it.
#
# One "ok - NAME" or "not ok - NAME" line per case, then a summary; the
# exit status is 1 if any case failed.  NAME... runs only the cases
# named (the unit tests and parses run always).  --update rewrites the
# expected.* files from what the engine gives now: read the difference
# (git diff tests/cocci) before committing it.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
COCCI=$REPO/coccinelle
CASES=$HERE/cocci
SP=$CASES/demo.cocci
SPATCH=${SPATCH:-spatch}
UPDATE=0
if [ "${1:-}" = --update ]; then
	UPDATE=1
	shift
fi

command -v "$SPATCH" >/dev/null || { echo "not ok - $SPATCH not found (apt-get install coccinelle)"; exit 1; }
command -v python3 >/dev/null || { echo "not ok - python3 not found"; exit 1; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/cpu-alloc-cocci.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
passed=0 failed=0

ok() { echo "ok - $1"; passed=$((passed + 1)); }
not_ok() {
	echo "not ok - $1"
	failed=$((failed + 1))
	[ -s "$TMP/why" ] && sed 's/^/#   /' "$TMP/why"
	return 0
}

# spatch_run LOG SPFILE ARGS...: spatch from coccinelle/, as regen.sh
# runs it; stdout to LOG.out, stderr to LOG.err; fails on an error,
# also one spatch only prints (regen.sh's test, and a Python traceback).
spatch_run() {
	local log=$1
	shift
	(cd "$COCCI" && "$SPATCH" --sp-file "$@") >"$log.out" 2>"$log.err" &&
		! grep -E -i '^(error|fatal)|exception|python failure|^Traceback' "$log.err" >/dev/null
}

# The helpers on their own.
py_out=$TMP/py.out
python3 -B "$CASES/test_cpu_alloc.py" >"$py_out" 2>&1
py_rc=$?
while IFS= read -r l; do
	case $l in
	"ok - "*) passed=$((passed + 1)) ;;
	"not ok - "*) failed=$((failed + 1)) ;;
	esac
	echo "$l"
done <"$py_out"
if [ "$py_rc" != 0 ] && ! grep -q '^not ok - ' "$py_out"; then
	: >"$TMP/why"
	not_ok "cpu_alloc.py: the unit tests ran (exit $py_rc)"
fi

# Every conversion parses with its #include (the unit tests above ran
# its configuration).
for f in "$COCCI"/*.cocci; do
	name=$(basename "$f")
	if (cd "$COCCI" && "$SPATCH" --parse-cocci "$f") >"$TMP/parse.out" 2>&1; then
		ok "parse $name"
	else
		grep -v '^Warning: PARSING: type defaults' "$TMP/parse.out" | tail -n 20 >"$TMP/why"
		not_ok "parse $name"
	fi
done

# The engine on the fixtures: one spatch run over a copy of all the
# cases (--dir, each file on its own, as make coccicheck runs) in patch
# mode, and one in report mode.
opts=$(sed -n 's|^// Options:[[:space:]]*||p' "$SP" | head -n1)
cases=()
for dir in "$CASES"/*/; do
	case=$(basename "$dir")
	if [ $# -gt 0 ]; then
		want=0
		for n in "$@"; do [ "$n" = "$case" ] && want=1; done
		[ "$want" = 1 ] || continue
	fi
	cases+=("$case")
	mkdir -p "$TMP/a/$case" "$TMP/b/$case" "$TMP/r/$case"
	(cd "$dir" && find . -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \) -printf '%P\n' |
		LC_ALL=C sort) >"$TMP/files.$case"
	while read -r file; do
		cp "$dir/$file" "$TMP/a/$case/"
		cp "$dir/$file" "$TMP/b/$case/"
		[ -f "$dir/expected.report" ] && cp "$dir/$file" "$TMP/r/$case/"
	done <"$TMP/files.$case"
done
if [ ${#cases[@]} = 0 ] && [[ " $* " != *" collect "* ]]; then
	echo "not ok - no case named $*"
	exit 1
fi

patch_rc=0 report_rc=0
if [ ${#cases[@]} -gt 0 ]; then
	# shellcheck disable=SC2086 # Options are passed verbatim
	spatch_run "$TMP/patch" "$SP" -D patch $opts --in-place --dir "$TMP/b"
	patch_rc=$?
	# shellcheck disable=SC2086
	spatch_run "$TMP/report" "$SP" -D report $opts --dir "$TMP/r"
	report_rc=$?
fi

# check CASE KIND GOT [DIR]: compare GOT with DIR/expected.KIND (DIR:
# tests/cocci/CASE by default).
check() {
	local dir=${4:-$CASES/$1}
	if [ "$UPDATE" = 1 ]; then
		cp "$3" "$dir/expected.$2"
		ok "$2 $1 (expected.$2 written)"
	elif diff -u --label "expected/$1" --label "got/$1" "$dir/expected.$2" "$3" >"$TMP/why" 2>&1; then
		ok "$2 $1"
	else
		not_ok "$2 $1"
	fi
}

for case in "${cases[@]+"${cases[@]}"}"; do
	if [ ! -s "$TMP/files.$case" ]; then
		echo "no .c or .h file in tests/cocci/$case" >"$TMP/why"
		not_ok "patch $case"
		continue
	fi
	if [ "$patch_rc" != 0 ]; then
		cat "$TMP/patch.err" "$TMP/patch.out" | tail -n 20 >"$TMP/why"
		not_ok "patch $case"
	else
		while read -r file; do
			diff -u --label "a/$file" --label "b/$file" "$TMP/a/$case/$file" "$TMP/b/$case/$file"
		done <"$TMP/files.$case" >"$TMP/got.patch"
		check "$case" patch "$TMP/got.patch"
	fi

	[ -f "$CASES/$case/expected.report" ] || continue
	if [ "$report_rc" != 0 ]; then
		cat "$TMP/report.err" "$TMP/report.out" | tail -n 20 >"$TMP/why"
		not_ok "report $case"
	else
		# spatch's order of the lines is its own: sort them
		sed -n "s|^$TMP/r/$case/||p" "$TMP/report.out" | LC_ALL=C sort >"$TMP/got.report"
		check "$case" report "$TMP/got.report"
	fi
done

# The collect mode (configure(collected=True), "// Targets: collected"),
# as scripts/regen.sh runs it: tests/cocci-collect/collect.cocci with
# -D collect on each file, then -D patch on each file with the targets
# the first pass wrote.  The sorted targets must be expected.targets,
# the result expected.patch.
CC=$HERE/cocci-collect
if [ $# = 0 ] || [[ " $* " = *" collect "* ]]; then
	mkdir -p "$TMP/c/a" "$TMP/c/b"
	copts=$(sed -n 's|^// Options:[[:space:]]*||p' "$CC/collect.cocci" | head -n1)
	export CPU_ALLOC_TARGETS=$TMP/c/targets
	: >"$CPU_ALLOC_TARGETS"
	cfiles=$(cd "$CC" && ls -- *.c *.h | LC_ALL=C sort)
	rc=0
	for file in $cfiles; do
		cp "$CC/$file" "$TMP/c/a/"
		cp "$CC/$file" "$TMP/c/b/"
	done
	for mode in collect patch; do
		for file in $cfiles; do
			# shellcheck disable=SC2086 # Options are passed verbatim
			spatch_run "$TMP/c/$mode.$file" "$CC/collect.cocci" -D $mode $copts \
				$([ $mode = patch ] && echo --in-place) "$TMP/c/b/$file" || rc=1
		done
		[ $mode = collect ] && LC_ALL=C sort -u -o "$CPU_ALLOC_TARGETS" "$CPU_ALLOC_TARGETS"
	done
	unset CPU_ALLOC_TARGETS
	if [ "$rc" != 0 ]; then
		cat "$TMP"/c/*.err | tail -n 20 >"$TMP/why"
		not_ok "targets collect"
		not_ok "patch collect"
	else
		check collect targets "$TMP/c/targets" "$CC"
		for file in $cfiles; do
			diff -u --label "a/$file" --label "b/$file" "$TMP/c/a/$file" "$TMP/c/b/$file"
		done >"$TMP/c/got.patch"
		check collect patch "$TMP/c/got.patch" "$CC"
	fi
fi

echo "# $passed passed, $failed failed"
[ "$failed" = 0 ]
