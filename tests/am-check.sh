#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The selftest of scripts/am-check.sh: the parsing of git am's output,
# the table, the fast import, and whole runs of make am-check against a
# tiny fake archive (tests/am-check/bin: apt-get, apt-cache, apt-helper)
# holding tiny fake 6.1.y tarballs, with tiny patches.  No network, no
# kernel; seconds.
#
#   tests/am-check.sh [NAME...]    run all tests, or those named
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
AMC=$REPO/scripts/am-check.sh
TMP=$(mktemp -d "${TMPDIR:-/tmp}/am-check-selftest.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export GIT_CONFIG_GLOBAL=$TMP/gitconfig GIT_CONFIG_NOSYSTEM=1
git config --file "$GIT_CONFIG_GLOBAL" user.name "Selftest"
git config --file "$GIT_CONFIG_GLOBAL" user.email "selftest@example.org"
git config --file "$GIT_CONFIG_GLOBAL" init.defaultBranch main
git config --file "$GIT_CONFIG_GLOBAL" advice.detachedHead false
unset V O SRC WORK REV BRANCH LOCK COMMITS AM_ALL AM_VERSIONS AM_ALSO AM_CACHE TOP

# --- the fixtures, made once ---------------------------------------------
#
# base:   linux-source-6.1/ (the pinned "Debian" tree): mm/a.c has an
#         #include line that plain 6.1.y lacks (like stackdepot in
#         mm/kmemleak.c), plus an executable file and a symlink
# 6.1.3:  listed by the archive, but the pool lacks it (404)
# 6.1.2:  plain: no #include line; patch 2's context is gone, 3-way merges
# 6.1.1:  plain, older: line "5" differs too; 3-way conflicts
# 6.1.0:  listed, tarball present, but AM_VERSIONS only
# Patches: 0001 README, 0002 mm/a.c ("5" -> "5 cpu_alloc").
F=$TMP/fixtures
mk_tree() { # DIR TOPNAME INCLUDE LINE5
	local d=$1/$2
	mkdir -p "$d/mm" "$d/scripts"
	printf 'readme\n' >"$d/README"
	{ printf '1\n2\n3\n'; [ "$3" = yes ] && printf '#include <linux/stackdepot.h>\n'; printf '4\n%s\n6\n7\n8\n9\n' "$4"; } >"$d/mm/a.c"
	printf '#!/bin/sh\n' >"$d/scripts/x.sh"
	chmod 755 "$d/scripts/x.sh"
	ln -s README "$d/link"
	printf '/*\n!.gitignore\n' >"$d/.gitignore"
}
mk_tarball() { # OUT TOPNAME INCLUDE LINE5
	local s
	s=$(mktemp -d "$TMP/stage.XXXXXX")
	mk_tree "$s" "$2" "$3" "$4"
	tar -C "$s" --sort=name --mtime=@0 --owner=0 --group=0 -cJf "$1" "$2"
	rm -rf "$s"
}
mkdir -p "$F/pool" "$F/commits"
mk_tarball "$F/linux-source-6.1.tar.xz" linux-source-6.1 yes 5
mk_tarball "$F/pool/linux_6.1.2.orig.tar.xz" linux-6.1.2 no 5
mk_tarball "$F/pool/linux_6.1.1.orig.tar.xz" linux-6.1.1 no "5 old"
mk_tarball "$F/pool/linux_6.1.0.orig.tar.xz" linux-6.1.0 no "5 old"
# The patches, made on the base as make export makes them.
(
	set -e
	d=$TMP/mkpatches
	mkdir -p "$d" && tar -C "$d" -xJf "$F/linux-source-6.1.tar.xz"
	cd "$d/linux-source-6.1" && git init -q && git add -f -A . && git commit -q -m base
	printf 'readme\ncpu_alloc\n' >README && git commit -q -a -m "doc: cpu_alloc: say so"
	sed -i 's/^5$/5 cpu_alloc/' mm/a.c && git commit -q -a -m "mm: cpu_alloc: use it"
	git format-patch -q --zero-commit --no-signature -k --no-numbered --full-index -o "$F/commits" HEAD~2..HEAD
) || { echo "Bail out! cannot make the fixtures"; exit 1; }

# The lock of the fake base: its id by the slow import (tar + git add),
# which the fast one must match.
BASE_ID=$(cd "$TMP" && : >"$TMP/nolock" && LOCK=$TMP/nolock "$REPO/scripts/tree.sh" import-tarball "$F/linux-source-6.1.tar.xz" "$TMP/slow" \
	"Import linux-source-6.1 6.1.9-1" \
	"The unmodified contents of linux-source-6.1.tar.xz from the Debian package linux-source-6.1 6.1.9-1." 2>&1 | tail -n1)
cat >"$F/lock" <<EOF
PACKAGE=linux-source-6.1
VERSION=6.1.9-1
TARBALL=$F/linux-source-6.1.tar.xz
SHA256=$(sha256sum "$F/linux-source-6.1.tar.xz" | cut -d' ' -f1)
KERNELVERSION=6.1.9
BASE_COMMIT=$BASE_ID
EOF
mkdir -p "$F/etc-apt/sources.list.d"
cat >"$F/etc-apt/sources.list.d/debian.sources" <<'EOF'
Types: deb
URIs: http://deb.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://deb.example/debian-security
Suites: bookworm-security
Components: main

Types: deb
URIs: http://other.example/apt
Suites: nodistro
Components: main
EOF
printf 'deb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian bookworm main\ndeb http://x.example cloud-sdk-bookworm main\n' \
	>"$F/etc-apt/sources.list"

. "$HERE/lib.sh"

# amc ARGS: am-check in the test's work directory against the fixtures.
amc() {
	env PATH="$HERE/am-check/bin:$PATH" APT_HELPER="$HERE/am-check/bin/apt-helper" APT_SOURCES_DIR="$F/etc-apt" \
		FAKE_POOL="$F/pool" FAKE_SRC_VERSIONS="${FAKE_SRC_VERSIONS:-6.1.3-1 6.1.2-1 6.1.2-2 6.1.1-1 6.1.0-1}" \
		FAKE_LOG="$T/fake.log" LOCK="$F/lock" COMMITS="$T/commits" WORK="$T/work" SRC="$T/nosrc" \
		AM_CACHE="$T/work/am-check/cache" \
		"$@" "$AMC"
}
# expect_ok / expect_fail CMD...: output in $T/out.
expect_ok() { "$@" >"$T/out" 2>&1 || { echo "unexpected failure: $*"; cat "$T/out"; return 1; }; }
expect_fail() { ! "$@" >"$T/out" 2>&1 || { echo "expected a failure: $*"; cat "$T/out"; return 1; }; }
says() { grep -qF -- "$1" "$T/out" && return 0; echo "output lacks: $1"; sed 's/^/  | /' "$T/out"; return 1; }
lacks() { ! grep -qF -- "$1" "$T/out" && return 0; echo "output has: $1"; sed 's/^/  | /' "$T/out"; return 1; }
# row VERSION: the table's row of VERSION, spaces squeezed.
row() { grep -E "^$1 " "$T/out" | head -n1 | tr -s ' '; }
is_row() { [ "$(row "$1")" = "$2" ] && return 0; echo "row $1: '$(row "$1")', wanted '$2'"; cat "$T/out"; return 1; }
# am_log TARBALL [-3]: git am of the fixture patches onto TARBALL's tree
# in a repository that also holds the base's blobs if -3; the log.
am_log() {
	local d=$T/amlog
	rm -rf "$d" && mkdir -p "$d"
	tar -C "$d" -xJf "$1" && mv "$d"/*/ "$d/t" && git -C "$d/t" init -q && git -C "$d/t" add -f -A . &&
		git -C "$d/t" commit -q -m plain || return 1
	if [ "${2:-}" = -3 ]; then
		tar -C "$d" -xJf "$F/linux-source-6.1.tar.xz" && git -C "$d/linux-source-6.1" init -q &&
			git -C "$d/linux-source-6.1" add -f -A . && git -C "$d/linux-source-6.1" commit -q -m base &&
			git -C "$d/t" fetch -q "$d/linux-source-6.1" HEAD || return 1
	fi
	git -C "$d/t" am ${2:---no-3way} "$F"/commits/*.patch >"$T/am.log" 2>&1 || true
}

# --- parsing and the table -----------------------------------------------

test_parse_all_applied() {
	am_log "$F/linux-source-6.1.tar.xz" && [ "$("$AMC" --parse "$T/am.log" 2)" = "2||" ] ||
		{ "$AMC" --parse "$T/am.log" 2; cat "$T/am.log"; return 1; }
}

test_parse_hunk_fails() {
	am_log "$F/pool/linux_6.1.2.orig.tar.xz" || return 1
	local r
	r=$("$AMC" --parse "$T/am.log" 2)
	[ "$r" = "1|0002|hunk mm/a.c:3 does not apply" ] || { echo "got: $r"; cat "$T/am.log"; return 1; }
}

test_parse_3way_no_base_blob() {
	am_log "$F/pool/linux_6.1.2.orig.tar.xz" --3way || return 1
	local r
	r=$("$AMC" --parse "$T/am.log" 2)
	[ "$r" = "1|0002|no 3-way base: the blob of mm/a.c is not in this repository" ] || { echo "got: $r"; cat "$T/am.log"; return 1; }
}

test_parse_3way_merges() {
	am_log "$F/pool/linux_6.1.2.orig.tar.xz" -3 || return 1
	[ "$("$AMC" --parse "$T/am.log" 2)" = "2||" ] || { "$AMC" --parse "$T/am.log" 2; cat "$T/am.log"; return 1; }
}

test_parse_3way_conflict() {
	am_log "$F/pool/linux_6.1.1.orig.tar.xz" -3 || return 1
	local r
	r=$("$AMC" --parse "$T/am.log" 2)
	[ "$r" = "1|0002|3-way conflict in mm/a.c" ] || { echo "got: $r"; cat "$T/am.log"; return 1; }
}

test_parse_missing_file() {
	printf 'Applying: one\nApplying: two\nerror: drivers/x.c: does not exist in index\nPatch failed at 0002 two\n' >"$T/am.log"
	local r
	r=$("$AMC" --parse "$T/am.log" 5)
	[ "$r" = "1|0002|drivers/x.c does not exist" ] || { echo "got: $r"; return 1; }
}

test_parse_not_a_patch() {
	printf 'Patch format detection failed.\n' >"$T/am.log"
	[ "$("$AMC" --parse "$T/am.log" 3)" = "3||" ] || return 1
	printf 'fatal: previous rebase directory .git/rebase-apply still exists but mbox given.\n' >"$T/am.log"
	local r
	r=$("$AMC" --parse "$T/am.log" 3)
	[ "$r" = "0|0001|previous rebase directory .git/rebase-apply still exists but mbox given." ] || { echo "got: $r"; return 1; }
}

test_table() {
	COMMITS=$F/commits "$AMC" --table "$HERE/am-check/results" >"$T/out" 2>&1 || { cat "$T/out"; return 1; }
	diff -u "$HERE/am-check/table.expected" "$T/out"
}

# --- the import ----------------------------------------------------------

test_fast_import_is_the_slow_one() {
	local id
	id=$(LOCK=$TMP/nolock "$REPO/scripts/tree.sh" import-fast "$F/linux-source-6.1.tar.xz" "$T/fast" \
		"Import linux-source-6.1 6.1.9-1" \
		"The unmodified contents of linux-source-6.1.tar.xz from the Debian package linux-source-6.1 6.1.9-1.") || return 1
	[ -n "$BASE_ID" ] && [ "$id" = "$BASE_ID" ] || { echo "fast $id, slow $BASE_ID"; return 1; }
	[ "$(git -C "$T/fast" ls-tree "$id" link scripts/x.sh | cut -c1-6 | tr '\n' ' ')" = "120000 100755 " ] ||
		{ git -C "$T/fast" ls-tree -r "$id"; return 1; }
}

# --- whole runs ------------------------------------------------------------

test_default_newest_fetchable() {
	expect_ok amc || return 1
	says "SKIP    6.1.3: cannot be fetched: 404 Not Found" && says "git am onto base-6.1.9-1: 2 patches" || return 1
	is_row 6.1.9-1 "6.1.9-1 (base) 2/2 - - -" &&
		is_row 6.1.3 "6.1.3 - - - cannot be fetched: 404 Not Found (http://deb.example/pool/main/l/linux/linux_6.1.3.orig.tar.xz)" &&
		is_row 6.1.2 "6.1.2 1/2 2/2 0002-mm-cpu_alloc-use-it.patch hunk mm/a.c:3 does not apply" || return 1
	[ -z "$(row 6.1.1)" ] || { echo "6.1.1 checked"; return 1; }
	[ ! -e "$T/work/am-check/trees" ] || { echo "trees left behind"; return 1; }
	ls "$T"/work/am-check/cache/6.1.2-*/linux_6.1.2.orig.tar.xz >/dev/null || return 1
	# the private apt configuration: deb-src of the Debian bookworm entries only
	local s=$T/work/am-check/apt/sources.list.d/am-check.sources
	grep -q 'URIs: http://deb.example/debian-security' "$s" && grep -q 'URIs: http://mirror.example/debian' "$s" &&
		grep -q 'Signed-By: /k.gpg' "$s" && ! grep -q 'other.example\|x.example\|^Types: deb$' "$s" ||
		{ cat "$s"; return 1; }
	grep -q 'Dir::Etc::SourceList=/dev/null' "$T/fake.log" || { cat "$T/fake.log"; return 1; }
}

test_second_run_downloads_nothing() {
	expect_ok amc && : >"$T/fake.log" && expect_ok amc || return 1
	! grep -q 'linux_6.1.2.orig' <(grep '^apt-helper' "$T/fake.log") || { echo "downloaded again"; cat "$T/fake.log"; return 1; }
	is_row 6.1.2 "6.1.2 1/2 2/2 0002-mm-cpu_alloc-use-it.patch hunk mm/a.c:3 does not apply"
}

test_all_versions() {
	expect_ok amc AM_ALL=1 || return 1
	is_row 6.1.1 "6.1.1 1/2 1/2 0002-mm-cpu_alloc-use-it.patch hunk mm/a.c:3 does not apply" &&
		is_row 6.1.0 "6.1.0 1/2 1/2 0002-mm-cpu_alloc-use-it.patch hunk mm/a.c:3 does not apply" &&
		grep -q 'with -3 *0002-mm-cpu_alloc-use-it.patch *3-way conflict in mm/a.c' "$T/out" || { cat "$T/out"; return 1; }
}

test_named_versions() {
	expect_ok amc AM_VERSIONS="6.1.0 6.1.2-2" || return 1
	is_row 6.1.0 "6.1.0 1/2 1/2 0002-mm-cpu_alloc-use-it.patch hunk mm/a.c:3 does not apply" && row 6.1.2 | grep -q . &&
		[ -z "$(row 6.1.1)$(row 6.1.3)" ]
}

test_named_version_404_fails() {
	expect_fail amc AM_VERSIONS="6.1.3 6.1.2" && says "not every version of AM_VERSIONS could be fetched" &&
		is_row 6.1.2 "6.1.2 1/2 2/2 0002-mm-cpu_alloc-use-it.patch hunk mm/a.c:3 does not apply" || return 1
	expect_fail amc AM_VERSIONS=6.1.3 && says "SKIP    6.1.3: cannot be fetched: 404 Not Found" &&
		says "none of the plain 6.1.y that the archive lists could be fetched"
}

test_unknown_version() {
	expect_fail amc AM_VERSIONS="6.1.2 6.1.77" && says "6.1.77 is not a 6.1.y the archive offers" &&
		says "offered: 6.1.3 6.1.2 6.1.1 6.1.0" || return 1
	[ ! -e "$T/work/am-check/trees" ] && [ -z "$(ls "$T/work/am-check/cache" 2>/dev/null)" ] ||
		{ echo "changed something"; ls -R "$T/work/am-check"; return 1; }
	expect_fail amc AM_VERSIONS="5.10.1" && says "'5.10.1' is not a 6.1.y version" || return 1
	expect_fail amc AM_ALL=yes && says "say AM_ALL=1"
}

test_no_network() {
	expect_fail amc FAKE_NET=down && says "network or archive problem" && says "AM_VERSIONS=none" || return 1
	[ ! -e "$T/work/am-check/trees" ] || return 1
}

test_nothing_fetchable() {
	rm -f "$T/pool" && mkdir -p "$T/pool"
	expect_fail amc FAKE_POOL="$T/pool" && says "none of the plain 6.1.y that the archive lists could be fetched" &&
		says "network or archive problem"
}

test_interrupted_run() {
	mkdir -p "$T/work/am-check/trees/repo"
	expect_fail amc && says "an earlier make am-check was interrupted" && says "rm -rf $T/work/am-check/trees" || return 1
	[ -d "$T/work/am-check/trees/repo" ] || { echo "removed the trees"; return 1; }
	rm -rf "$T/work/am-check/trees"
	mkdir -p "$T/work/am-check/cache/6.1.2-0" && : >"$T/work/am-check/cache/6.1.2-0/linux_6.1.2.orig.tar.xz.part"
	expect_fail amc && says "interrupted in a download" && [ -e "$T/work/am-check/cache/6.1.2-0/linux_6.1.2.orig.tar.xz.part" ]
}

test_base_only_offline() {
	expect_ok amc AM_VERSIONS=none FAKE_NET=down && says "git am onto base-6.1.9-1: 2 patches" || return 1
	! grep -q '^apt' "$T/fake.log" 2>/dev/null || { cat "$T/fake.log"; return 1; }
}

test_base_fails() {
	sed -i 's/^ readme$/ README/' "$T"/commits/0001-*.patch
	expect_fail amc AM_VERSIONS=none && says "stops at: 0001" && says "does not apply onto the pinned base"
}

# --- the runner ------------------------------------------------------------

names=("$@")
[ ${#names[@]} = 0 ] && mapfile -t names < <(declare -F | awk '{print $3}' | grep '^test_' | sed 's/^test_//')
start=$SECONDS
# each case gets its own copy of the fixture's patches
copy_commits() { cp -r "$F/commits" "$T/commits"; }
run_cases copy_commits "${names[@]}"
echo "am-check selftest: $((SECONDS - start))s${failures:+, failed:$failures}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
