#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make selftest: the driver's own tests, on a fake kernel tree.
#
# tests/fake/linux is a tiny tree with the real target names (it honours
# O=, and can be told to fail a build, warn, or hang the boot);
# tests/fake/bin holds a fake QEMU, apt-get, apt-cache, dpkg-query,
# dpkg, chrt and cross compiler, first in PATH.  Each test gets a copy of the repository and a
# work directory of its own, runs the real Makefile and scripts, and
# checks what they print and leave behind.  No network, no real kernel:
# the whole run takes seconds.
#
#   tests/run.sh [NAME...]    run all tests, or those named
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/cpu-alloc-selftest.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
export PATH="$HERE/fake/bin:$PATH"
export FAKE_APT_LOG=$TMP/apt.log
export DEPS_NO_UPDATE=1 GIT_CONFIG_GLOBAL=$TMP/gitconfig GIT_CONFIG_NOSYSTEM=1
git config --file "$TMP/gitconfig" user.name "Selftest"
git config --file "$TMP/gitconfig" user.email "selftest@example.org"
git config --file "$TMP/gitconfig" init.defaultBranch main
# the driver's settings (scripts/lib.sh lists them) that a parent make
# or shell passed on
# shellcheck disable=SC2046
unset $(bash -c '. "$1/scripts/lib.sh" && echo "$CPU_ALLOC_SETTINGS"' - "$REPO") TEST_ALL SELFTEST_ARGS MAKEFLAGS
# never the user's caches of spatch runs and tarballs
export SPATCH_CACHE=$TMP/spatch-cache CHECKPATCH_CACHE=$TMP/checkpatch-cache SPARSE_CACHE=$TMP/sparse-cache \
	AM_CACHE=$TMP/tarballs

# The fake package: the fake tree packed as Debian packs linux-source.
PKGDIR=$TMP/pkg
mkdir -p "$PKGDIR/stage"
cp -r "$HERE/fake/linux" "$PKGDIR/stage/linux-source-6.1"
mv "$PKGDIR/stage/linux-source-6.1/dot-gitignore" "$PKGDIR/stage/linux-source-6.1/.gitignore"
tar -C "$PKGDIR/stage" --sort=name --mtime=@0 --owner=0 --group=0 \
	-cJf "$PKGDIR/linux-source-6.1.tar.xz" linux-source-6.1
export FAKE_TARBALL=$PKGDIR/linux-source-6.1.tar.xz
export FAKE_ARCHIVE="6.1.192-3 6.1.192-2"
export FAKE_INSTALLED="linux-source-6.1=6.1.192-3"
for p in git gcc make libc6-dev bc bison flex libelf-dev libssl-dev cpio xz-utils kmod \
	ccache rsync perl python3 python3-ply python3-git dwarves qemu-system-x86 sparse coccinelle b4 gnuplot-nox \
	nfs-ganesha nfs-ganesha-vfs gcc-aarch64-linux-gnu; do
	FAKE_INSTALLED="$FAKE_INSTALLED $p=1"
done

. "$HERE/lib.sh"

# setup: a fresh copy of the repository in $R, work directory $W, the
# lock made by the driver's own relock against the fake package.  The
# first copy is made once ($TMP/template, by make_template) and copied
# for each case: the same files, without a relock per case.
setup() {
	R=$T/repo W=$T/work
	[ -f "$TMP/template/ready" ] || { echo "setup: no template (make_template failed)"; return 1; }
	cp -a "$TMP/template/repo" "$R"
	if [ -d "$TMP/template/work" ]; then cp -a "$TMP/template/work" "$W"; fi
}
make_template() {
	local R=$TMP/template/repo W=$TMP/template/work
	mkdir -p "$R"
	(cd "$REPO" && tar --exclude=./.git --exclude=./tests/fake -cf - .) | tar -C "$R" -xf -
	rm -f "$R"/commits/*.patch
	git -C "$R" init -q && git -C "$R" add -A && git -C "$R" commit -q -m repo
	mk relock >/dev/null || { echo "setup: relock failed"; return 1; }
	sed -i "s|^TARBALL=.*|TARBALL=$FAKE_TARBALL|" "$R/kernel-base.lock"
	touch "$TMP/template/ready"
}

# mk ARGS: the driver's make, in the test's repository and work directory.
mk() { make --no-print-directory -C "$R" WORK="$W" "$@"; }

# expect_fail WHAT CMD...: CMD must fail; its output goes to $T/out.
expect_fail() {
	local what=$1
	shift
	if "$@" >"$T/out" 2>&1; then
		echo "expected failure: $what"
		cat "$T/out"
		return 1
	fi
}
# expect_ok CMD...: CMD must succeed; its output goes to $T/out.
expect_ok() {
	if ! "$@" >"$T/out" 2>&1; then
		echo "unexpected failure: $*"
		cat "$T/out"
		return 1
	fi
}
# says TEXT: the last command's output holds TEXT.
says() {
	grep -qF -- "$1" "$T/out" && return 0
	echo "output lacks: $1"
	sed 's/^/  | /' "$T/out"
	return 1
}

# commit_in_tree MSG FILE CONTENT: a commit in the work tree.
commit_in_tree() {
	mkdir -p "$(dirname "$W/linux/$2")"
	printf '%s\n' "$3" >"$W/linux/$2"
	git -C "$W/linux" add -f "$2"
	git -C "$W/linux" commit -q -m "$1" -m "Why: a test." -m "Signed-off-by: Selftest <selftest@example.org>"
}

# --- the tests -------------------------------------------------------

test_help() {
	expect_ok mk help && says "bisect-check" && says "selftest" && says "[default]"
}

test_relock_writes_lock() {
	local l=$R/kernel-base.lock
	grep -qx 'VERSION=6.1.192-3' "$l" && grep -qx 'KERNELVERSION=6.1.192' "$l" &&
		grep -q '^SHA256=[0-9a-f]\{64\}$' "$l" && grep -q '^BASE_COMMIT=[0-9a-f]\{40\}$' "$l" ||
		{ cat "$l"; return 1; }
}

test_base_commit_reproducible() {
	expect_ok mk tree || return 1
	local id
	id=$(git -C "$W/linux" rev-parse base)
	grep -qx "BASE_COMMIT=$id" "$R/kernel-base.lock" || { echo "base $id not in lock"; return 1; }
	# a second import elsewhere gives the same id
	expect_ok make --no-print-directory -C "$R" WORK="$T/work2" tree &&
		[ "$(git -C "$T/work2/linux" rev-parse base)" = "$id" ]
}

test_tree_imports_ignored_files() {
	expect_ok mk tree || return 1
	local want have
	want=$(tar -tJf "$FAKE_TARBALL" | grep -vc '/$')
	have=$(git -C "$W/linux" ls-files | wc -l)
	[ "$want" = "$have" ] || { echo "tarball has $want files, base commit $have"; return 1; }
}

test_empty_series_head_is_base() {
	expect_ok mk tree && says "base + 0 commits" || return 1
	expect_ok mk build && says BUILT || return 1
	expect_ok mk boot && says PASS
}

test_export_byte_stable() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: first" mm-first "one" &&
		commit_in_tree "mm: cpu_alloc: second" mm-second "two" || return 1
	expect_ok mk export && says "2 commits" || return 1
	ls "$R"/commits/0001-*.patch "$R"/commits/0002-*.patch >/dev/null || return 1
	local sum
	sum=$(cat "$R"/commits/*.patch | sha256sum)
	grep -q '^From 0000000000000000000000000000000000000000' "$R"/commits/0001-*.patch || { echo "no zero commit"; return 1; }
	grep -q '^Subject: mm: cpu_alloc: first$' "$R"/commits/0001-*.patch || { echo "numbered subject"; return 1; }
	expect_ok mk export && says "0 files changed" || return 1
	# a clean tree from commits/ exports to the same bytes
	expect_ok mk tree && expect_ok mk export && says "0 files changed" || return 1
	[ "$(cat "$R"/commits/*.patch | sha256sum)" = "$sum" ] || { echo "bytes changed"; return 1; }
	# and another work directory too
	expect_ok make --no-print-directory -C "$R" WORK="$T/w3" tree export && says "0 files changed"
}

test_tree_refuses_dirty() {
	expect_ok mk tree || return 1
	echo change >>"$W/linux/README"
	expect_fail "dirty tree" mk tree && says "uncommitted changes" && says "make export" || return 1
	grep -q change "$W/linux/README" || { echo "the change was lost"; return 1; }
	git -C "$W/linux" checkout -q README
	# an untracked file that Debian's .gitignore hides
	echo new >"$W/linux/newfile"
	expect_fail "untracked file" mk tree && says "uncommitted changes" || return 1
	[ -f "$W/linux/newfile" ] || { echo "the file was lost"; return 1; }
}

test_tree_refuses_unexported() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: not exported" f "x" || return 1
	expect_fail "unexported commit" mk tree && says "differ from commits/" && says "make export" || return 1
	git -C "$W/linux" log -1 --format=%s | grep -q "not exported" || { echo "commit lost"; return 1; }
	expect_ok mk tree FORCE=1 && says "base + 0 commits"
}

test_tree_follows_new_commits() {
	# commits/ gained a patch (a pull): the untouched branch is redone
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: one" a "1" && expect_ok mk export || return 1
	git -C "$W/linux" reset -q --hard base
	expect_ok mk tree FORCE=1 && says "base + 1 commits" || return 1
	cp "$R"/commits/0001-*.patch "$T/keep.patch"
	rm "$R"/commits/0001-*.patch
	expect_ok mk tree && says "base + 0 commits" || return 1
	cp "$T/keep.patch" "$R/commits/0001-mm-cpu_alloc-one.patch"
	expect_ok mk tree && says "base + 1 commits"
}

test_patch_does_not_apply() {
	expect_ok mk tree || return 1
	commit_in_tree "readme: change it" README "changed" && expect_ok mk export || return 1
	# a second patch whose context is not in the tree
	sed 's/^-A fake kernel tree.*/-something else entirely/' "$R"/commits/0001-*.patch >"$R/commits/0002-broken.patch"
	sed -i 's/^Subject: .*/Subject: readme: broken/' "$R/commits/0002-broken.patch"
	git -C "$W/linux" reset -q --hard base
	expect_fail "bad patch" mk tree FORCE=1 && says "commits/0002-broken.patch does not apply" &&
		says "am --continue" && says "am --abort" || return 1
	[ -d "$W/linux/.git/rebase-apply" ] || { echo "git am state not left"; return 1; }
	expect_fail "am in progress" mk tree && says "git am is stopped"
}

test_lock_checksum_mismatch() {
	sed -i 's/^SHA256=.*/SHA256=0000000000000000000000000000000000000000000000000000000000000000/' "$R/kernel-base.lock"
	expect_fail "checksum" mk tree && says "checksum mismatch" || return 1
	[ ! -e "$W/linux" ] || { echo "a tree was made anyway"; return 1; }
}

test_version_gone_from_archive() {
	FAKE_ARCHIVE="6.1.200-1" FAKE_INSTALLED="${FAKE_INSTALLED/linux-source-6.1=6.1.192-3/}" \
		expect_fail "version gone" mk deps && says "no longer in the archive" && says "make relock" &&
		says "6.1.200-1"
}

test_package_missing() {
	FAKE_INSTALLED="${FAKE_INSTALLED/linux-source-6.1=6.1.192-3/}" expect_fail "not installed" mk tree &&
		says "is not installed" && says "make deps"
}

test_deps_installs_pinned() {
	: >"$FAKE_APT_LOG"
	FAKE_INSTALLED="${FAKE_INSTALLED/linux-source-6.1=6.1.192-3/}" expect_ok mk deps || return 1
	grep -q 'install.*linux-source-6.1=6.1.192-3' "$FAKE_APT_LOG" || { cat "$FAKE_APT_LOG"; return 1; }
	# idempotent: nothing to install the second time
	: >"$FAKE_APT_LOG"
	expect_ok mk deps && says "all installed" && [ ! -s "$FAKE_APT_LOG" ]
}

test_build_failure_log() {
	expect_ok mk tree || return 1
	commit_in_tree "kernel: break the build" build-error "fake breakage" && expect_ok mk export || return 1
	expect_fail "build error" mk build && says "build of" && says "failed" && says "log: $W/logs/build-" &&
		says "fake breakage"
}

# A build configures only when what decides the .config changed: the
# fragments, a Kconfig file, or the .config itself.
test_config_only_when_inputs_change() {
	local trace=$T/trace
	configured() { [ "$(grep -c '^configure$' "$trace" 2>/dev/null)" = "$1" ] || {
		echo "configured $(grep -c '^configure$' "$trace") times, not $1 ($2)"; return 1; }; }
	expect_ok mk tree || return 1
	FAKE_TRACE=$trace expect_ok mk build && configured 1 "first build" || return 1
	FAKE_TRACE=$trace expect_ok mk build && configured 1 "nothing changed" || return 1
	commit_in_tree "kernel: a file" kernel/new.c "int x;" && expect_ok mk export &&
		FAKE_TRACE=$trace expect_ok mk build && configured 1 "a .c file changed" || return 1
	commit_in_tree "kconfig: a new symbol" Kconfig.extra "config NEW" && expect_ok mk export &&
		FAKE_TRACE=$trace expect_ok mk build && configured 2 "a Kconfig file changed" || return 1
	echo "CONFIG_HAND_EDITED=y" >>"$W/build/.config"
	FAKE_TRACE=$trace expect_ok mk build && configured 3 "the .config was edited" &&
		fails "the edit survived" not grep -q HAND_EDITED "$W/build/.config" || return 1
	echo "CONFIG_SMP=y" >>"$R/qemu/cpu_alloc.config"
	FAKE_TRACE=$trace expect_ok mk build && configured 4 "a fragment changed" || return 1
	FAKE_TRACE=$trace expect_ok mk build FRESH_CONFIG=1 && configured 5 "FRESH_CONFIG=1"
}

test_config_unknown_symbol_skipped() {
	# CPU_ALLOC is not in the fake Kconfig: skipped, the build goes on
	expect_ok mk tree && expect_ok mk build || return 1
	# a symbol the tree defines but the config drops is an error
	commit_in_tree "kconfig: drop SMP" Kconfig.drop "CONFIG_SMP" && expect_ok mk export || return 1
	expect_fail "dropped symbol" mk build && says "ask for CONFIG_SMP" && says "config-"
}

test_boot_verdicts() {
	expect_ok mk tree && expect_ok mk build && expect_ok mk boot && says PASS || return 1
	[ -f "$W"/logs/boot-*-smp4-max4.log ] || { echo "no console log kept"; return 1; }
	local what
	for what in panic fail warn kfail; do
		echo "$what" >"$W/build/arch/x86/boot/bzImage.tmp"
		{ echo FAKE-KERNEL; echo "$what"; } >"$W/build/arch/x86/boot/bzImage"
		expect_fail "boot $what" mk boot || return 1
		case $what in
		panic) says "no-verdict-line" ;;
		fail) says "guest-verdict-FAIL" ;;
		warn) says "splats=1" ;;
		kfail) says "kunit.py-parse-failed" ;;
		esac || return 1
	done
}

# fake_verdict VERDICT [CONSOLE-LINE...]: the next fake boot prints these.
fake_verdict() {
	local v=$1
	shift
	{ echo FAKE-KERNEL; echo verdict; echo "$v"; printf '%s\n' "$@"; } >"$W/build/arch/x86/boot/bzImage"
}

# bad_verdicts PREFIX AFTER [MAKE-ARGS...]: each line "FIELDS|PROBLEM" of
# stdin is a guest verdict "PASS PREFIX FIELDS" that the host must fail,
# saying PROBLEM; then the command AFTER must succeed too (true: nothing).
bad_verdicts() {
	local prefix=$1 after=$2 v want
	shift 2
	while IFS='|' read -r v want; do
		fake_verdict "PASS $prefix$v"
		expect_fail "verdict $v" mk boot "$@" && says "$want" && $after || return 1
	done
}

test_boot_stress_fields() {
	expect_ok mk tree && expect_ok mk build || return 1
	local ok="cpus=4/4 stress=1000000/0/0 stress_ctx=900000/60000/40000 stress_delta=0/0"
	ok="$ok hotplug=3/1/0 cpus_after=4/4"
	fake_verdict "PASS $ok" && expect_ok mk boot && says "stress=1000000/0/0" || return 1
	# other users' calls during the run: the deltas are theirs, noted
	fake_verdict "PASS cpus=4/4 stress=1000000/0/12 stress_delta=6/48 stress_foreign=6" &&
		expect_ok mk boot && says "6 calls of other users during the run" || return 1
	# stopped by STRESS_SECS: noted; corruption still fails
	fake_verdict "PASS cpus=4/4 stress=59413/0/0 stress_delta=0/0 stress_timed_out=1" &&
		expect_ok mk boot STRESS_SECS=120 && says "stopped by STRESS_SECS=120 after 59413 operations" || return 1
	bad_verdicts "" true <<EOT || return 1
cpus=4/4 stress=59413/2/0 stress_delta=0/0 stress_timed_out=1|stress-corrupt=2
cpus=4/4 stress=1000000/1/0 stress_delta=0/0|stress-corrupt=1
cpus=4/4 stress=1000000/1/0 stress_delta=0/0 stress_foreign=6|stress-corrupt=1
cpus=4/4 stress=1000000/0/3 stress_delta=0/0|stress-leaked-units=3
cpus=4/4 stress=1000000/0/3 stress_delta=0/0 stress_foreign=0|stress-leaked-units=3
cpus=4/4 stress=1000000/0/0 stress_delta=1/8 stress_foreign=-1|stress-delta(objects/cpu_bytes)=1/8
cpus=4/4 stress=1000000/0/0 stress_delta=1/8|stress-delta(objects/cpu_bytes)=1/8
cpus=4/4 stress=error-22|stress=error-22
cpus=4/4 stress=absent hotplug=3/0/0|hotplug-sum-inexact
cpus=4/4 hotplug=3/1/2|hotplug-bad-checks=2
cpus=4/4 hotplug=3/1/0 cpus_after=3/4|cpus-online-after-hotplug=3/4
EOT
	# kernels without the stress test (no fields, or absent) pass
	fake_verdict "PASS cpus=4/4 stress=absent" && expect_ok mk boot || return 1
	# built in, it must have run
	echo CONFIG_CPU_ALLOC_STRESS_TEST=y >>"$W/build/.config"
	fake_verdict "PASS cpus=4/4 stress=absent" &&
		expect_fail "stress not run" mk boot && says "stress-test-built-but-not-run"
}

# The guest is told how many files outside the allocator call
# cpu_alloc() or CPU_ALLOC() (cpu_alloc_users=); tools/ (glibc's
# CPU_ALLOC) and the allocator's own files do not count.  Only the files
# changed since the base are searched: the base has no user.
test_boot_counts_users() {
	expect_ok mk tree || return 1
	commit_in_tree "drivers: cpu_alloc: a user" drivers/user.c 'void *p = cpu_alloc(4, 0, 4);' &&
		commit_in_tree "drivers: cpu_alloc: another" drivers/other.h 'x = CPU_ALLOC(int, 0);' &&
		commit_in_tree "tools: cpu sets" tools/cpuset.c 'CPU_ALLOC(8);' &&
		commit_in_tree "mm: cpu_alloc: more" mm/cpu_alloc_more.c 'cpu_alloc(4, 0, 4);' &&
		commit_in_tree "drivers: no call" drivers/none.c 'int cpu_alloc_count;' || return 1
	expect_ok mk build && fake_verdict "PASS cpus=4/4" && expect_ok mk boot NFS=0 || return 1
	grep -q "Command line: .* cpu_alloc_users=2 " "$W"/logs/boot-*-smp4-max4.log ||
		{ grep "Command line" "$W"/logs/boot-*-smp4-max4.log; return 1; }
}

# free_port: a TCP port of 127.0.0.1 that nothing listens on now, so
# that a test never meets a real server (another make boot).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# nfs_stopped: the fake server of the last boot is no longer running.
nfs_stopped() {
	local pid
	pid=$(cat "$W/nfs/ganesha.pid" 2>/dev/null) || { echo "the NFS server was not started"; return 1; }
	! kill -0 "$pid" 2>/dev/null || { echo "NFS server $pid still running"; kill "$pid"; return 1; }
}

# The fake tree has no NFS client: these tests add it to the .config.
test_boot_nfs() {
	local port ok="PASS cpus=4/4 nfs=ok:0->524288 nfs_events=12->130"
	port=$(free_port)
	expect_ok mk tree && expect_ok mk build || return 1
	# without the client, no server and no NIC; nfs=absent passes
	fake_verdict "PASS cpus=4/4 nfs=absent" && expect_ok mk boot NFS_PORT="$port" GANESHA=/nonexistent &&
		! says "NFS " >/dev/null && ! grep -q 'nfs_server=' "$W"/logs/boot-*-smp4-max4.log || return 1
	echo CONFIG_NFS_FS=y >>"$W/build/.config"
	fake_verdict "$ok" && expect_ok mk boot NFS_PORT="$port" && says "nfs=ok:0->524288" &&
		says "nfs-ganesha on 127.0.0.1:$port" && nfs_stopped || return 1
	grep -q "Command line: .* nfs_server=10.0.2.2:$port" "$W"/logs/boot-*-smp4-max4.log &&
		grep -q "Path = \"$W/nfs/export\"" "$W/nfs/ganesha.conf" ||
		{ echo "server address not passed, or export not private"; return 1; }
	bad_verdicts "cpus=4/4 " nfs_stopped NFS_PORT="$port" <<EOT || return 1
nfs=ok:7->7 nfs_events=1->2|nfs-bytes-did-not-move(ok:7->7)
nfs=ok:0->4096 nfs_events=3->3|nfs-events-did-not-move(3->3)
nfs=ok:0->4096|nfs-events-did-not-move(none)
nfs=mount-110|nfs=mount-110
nfs=absent|nfs-client-built-but-not-run(nfs=absent)
cpus=4/4|nfs-client-built-but-not-run(nfs=none)
nfs=noserver|nfs=noserver
EOT
	# NFS=0: no server, and the guest's noserver passes
	rm -f "$W/nfs/ganesha.pid"
	fake_verdict "PASS cpus=4/4 nfs=noserver" && expect_ok mk boot NFS=0 NFS_PORT="$port" &&
		! says "nfs-ganesha" >/dev/null && [ ! -f "$W/nfs/ganesha.pid" ] || return 1
	# a hung guest: the server still ends with the boot
	{ echo FAKE-KERNEL; echo hang; } >"$W/build/arch/x86/boot/bzImage"
	expect_fail "hang" mk boot NFS_PORT="$port" BOOT_TIMEOUT=2 && says "timeout(2s)" && nfs_stopped
}

# listen_on PORT: something listens on 127.0.0.1:PORT, in the background
# ($lpid), until the test kills it; 1, saying why, if it is not up
# within 30 s.  (It used to stop by itself after 30 s: a boot that
# reached the port probe later, under CI's load, found the port free.)
listen_on() {
	python3 -c 'import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8); print("up", flush=True); time.sleep(3600)' "$1" >"$T/listener" 2>&1 &
	lpid=$!
	local i
	for ((i = 0; i < 300; i++)); do
		grep -q up "$T/listener" && return 0
		kill -0 "$lpid" 2>/dev/null || break
		sleep 0.1
	done
	echo "cannot listen on 127.0.0.1:$1:"
	cat "$T/listener"
	kill "$lpid" 2>/dev/null
	return 1
}

# fails WHAT CMD...: CMD (a check that prints nothing) holds; if not,
# say WHAT and show the last output.
fails() {
	local what=$1
	shift
	"$@" && return 0
	echo "check failed: $what"
	sed 's/^/  | /' "$T/out"
	return 1
}
# not CMD...: CMD fails (for fails, which runs a command, not a pipeline).
not() { ! "$@"; }

test_boot_nfs_server_errors() {
	local port lpid
	port=$(free_port)
	expect_ok mk tree && expect_ok mk build || return 1
	echo CONFIG_NFS_FS=y >>"$W/build/.config"
	fake_verdict "PASS cpus=4/4 nfs=ok:0->8 nfs_events=1->9"
	expect_fail "no server program" mk boot NFS_PORT="$port" GANESHA=/nonexistent/ganesha.nfsd &&
		says "is not installed" && says "run: make deps" && says "NFS=0" || return 1
	FAKE_GANESHA=inuse expect_fail "bind error" mk boot NFS_PORT="$port" &&
		says "port $port on 127.0.0.1 is in use" && says "NFS_PORT=" || return 1
	FAKE_GANESHA=nofsal expect_fail "no VFS backend" mk boot NFS_PORT="$port" &&
		says "VFS backend is missing" && says "run: make deps" && nfs_stopped || return 1
	expect_fail "not a port" mk boot NFS_PORT=nfs && says "NFS_PORT=nfs is not a port number" || return 1
	# auto: a port that another server takes between the check and the
	# bind is skipped, up to the end of the range
	FAKE_GANESHA=inuse expect_fail "every port taken" mk boot &&
		says "no free port in 20490-20589" || return 1
	# a port something already listens on: refused before the server starts
	listen_on "$port" || return 1
	rm -f "$W/nfs/ganesha.pid"
	expect_fail "port in use" mk boot NFS_PORT="$port" && says "port $port on 127.0.0.1 is in use" &&
		fails "the server was started" test ! -f "$W/nfs/ganesha.pid"
	local rc=$?
	kill "$lpid"
	wait "$lpid" 2>/dev/null
	[ $rc = 0 ] || return 1
	# auto (the default) goes past a port in use, here the first one
	listen_on 20490 || return 1
	expect_ok mk boot && says "nfs-ganesha on 127.0.0.1:2" &&
		fails "the server took 20490, where something listens" not grep -qF "127.0.0.1:20490," "$T/out" &&
		fails "no nfs_server= on the command line" \
			grep -q "Command line: .* nfs_server=10.0.2.2:20[45][0-9][0-9]" "$W"/logs/boot-*-smp4-max4.log &&
		fails "the guest was sent to 20490" \
			not grep -q "nfs_server=10.0.2.2:20490 " "$W"/logs/boot-*-smp4-max4.log && nfs_stopped
	rc=$?
	kill "$lpid" 2>/dev/null
	wait "$lpid" 2>/dev/null
	return $rc
}

test_boot_dmatest() {
	expect_ok mk tree && expect_ok mk build || return 1
	local ok="dmatest=400/0:memcpy_count=0->400,bytes=0->3276800"
	# without the software channels, absent passes
	fake_verdict "PASS cpus=4/4 dmatest=absent" && expect_ok mk boot || return 1
	printf 'CONFIG_DMATEST=y\nCONFIG_SW_MEMCPY_DMA=y\n' >>"$W/build/.config"
	fake_verdict "PASS cpus=4/4 $ok" && expect_ok mk boot && says "$ok" || return 1
	bad_verdicts "cpus=4/4 " true <<EOT || return 1
dmatest=400/2:memcpy_count=0->400,bytes=0->3276800|dmatest-failures=2
dmatest=0/0:memcpy_count=0->0,bytes=0->0|dmatest-no-tests
dmatest=400/0:memcpy_count=5->5,bytes=0->3276800|dmatest-memcpy_count-did-not-move(5->5)
dmatest=400/0:memcpy_count=0->400,bytes=9->9|dmatest-bytes-did-not-move(9->9)
dmatest=absent|dmatest-built-but-not-run(dmatest=absent)
cpus=4/4|dmatest-built-but-not-run(dmatest=none)
dmatest=error-22|dmatest=error-22
EOT
}

test_boot_generic() {
	expect_ok mk tree && expect_ok mk build || return 1
	local ok="generic=mount=20/20,aio=20,irqs=120->180,counts_back=yes"
	# without aio or tmpfs, absent passes
	fake_verdict "PASS cpus=4/4" && expect_ok mk boot || return 1
	printf 'CONFIG_AIO=y\nCONFIG_TMPFS=y\n' >>"$W/build/.config"
	fake_verdict "PASS cpus=4/4 $ok" && expect_ok mk boot && says "$ok" || return 1
	bad_verdicts "cpus=4/4 " true <<EOT || return 1
generic=mount=19/19,aio=20,irqs=120->180,counts_back=yes|generic=mount=19/19,aio=20,irqs=120->180,counts_back=yes
generic=mount=20/20,aio=0,irqs=120->180,counts_back=yes|generic=mount=20/20,aio=0,irqs=120->180,counts_back=yes
generic=mount=20/20,aio=20,irqs=120->180,counts_back=no|generic=mount=20/20,aio=20,irqs=120->180,counts_back=no
generic=mount=20/20,aio=20,irqs=0->0,counts_back=yes|generic-irqs(mount=20/20,aio=20,irqs=0->0,counts_back=yes)
generic=mount=20/20,aio=20,irqs=180->120,counts_back=yes|generic-irqs(mount=20/20,aio=20,irqs=180->120,counts_back=yes)
cpus=4/4|generic-not-run(generic=none)
EOT
}

# The host judges the fail_cpu_alloc fields: leaks and bad results
# fail; zero calls fail only where the commit converted the user.
test_boot_inject_fields() {
	expect_ok mk tree && expect_ok mk build || return 1
	local ok="PASS cpus=4/4 inject_kmem_cache=1/1/0/0 inject_netns=14/14/0/0 inject_loop=1/1/0/0 inject_memory=absent numa=ok:2/40"
	# without CONFIG_FAIL_CPU_ALLOC the fields are not checked
	fake_verdict "PASS cpus=4/4 inject_netns=3/3/1/0" && expect_ok mk boot || return 1
	echo CONFIG_FAIL_CPU_ALLOC=y >>"$W/build/.config"
	fake_verdict "$ok" && expect_ok mk boot || return 1
	bad_verdicts "cpus=4/4 " true <<EOT || return 1
inject_netns=14/14/1/0|inject_netns-leaks=1
inject_netns=14/13/0/1|inject_netns-bad=1
inject_netns=14/14/0/0 inject_loop=oops|inject_loop=oops
inject_kmem_cache=absent|fail_cpu_alloc-built-but-not-run
inject_netns=1/1/0/0 numa=bad:cpu1+0x0:node0/1|numa=bad:cpu1+0x0:node0/1
inject_netns=1/1/0/0 ptdump=bad:2/5|ptdump=bad:2/5
inject_netns=1/1/0/0 ptdump=ok:0/0|ptdump=ok:0/0
inject_netns=1/1/0/0 ptdump=no-cpu-area-markers|ptdump=no-cpu-area-markers
EOT
	fake_verdict "$ok ptdump=ok:0/12" && expect_ok mk boot || return 1
	# zero calls: fine where the user is not converted (the fake tree
	# has no net/ipv4/af_inet.c), not where it is
	fake_verdict "PASS cpus=4/4 inject_netns=0/0/0/0" && expect_ok mk boot || return 1
	commit_in_tree "net: cpu_alloc: convert" net/ipv4/af_inet.c "void *m = cpu_alloc(8, 0, 8);" &&
		expect_ok mk build || return 1
	echo CONFIG_FAIL_CPU_ALLOC=y >>"$W/build/.config"
	fake_verdict "PASS cpus=4/4 inject_netns=0/0/0/0" &&
		expect_fail "no call where converted" mk boot && says "inject_netns-made-no-cpu_alloc-call"
}

# The host judges the memory cgroup fields: test_kmem, the charge of an
# accounted object, and the unprivileged exhaustion test.
test_boot_memcg_fields() {
	# (the guest of these verdicts runs all of test_kmem; the default
	# KMEM_SKIP is tested below)
	local -x KMEM_SKIP=none
	expect_ok mk tree && expect_ok mk build || return 1
	# without CONFIG_MEMCG and the rest, no field is required
	fake_verdict "PASS cpus=4/4" && expect_ok mk boot || return 1
	printf 'CONFIG_MEMCG=y\nCONFIG_USER_NS=y\nCONFIG_NET_NS=y\n' >>"$W/build/.config"
	fake_verdict "PASS cpus=4/4" && expect_fail "unpriv not run" mk boot &&
		says "unpriv-not-run" || return 1
	local ok="cpus=4/4 memcg_percpu=16384/16384/0 unpriv=150/unshare-ENOMEM/ok unpriv_events=40/2/0"
	ok="$ok unpriv_region=400000/471000 unpriv_region_full=0 unpriv_freed=9000/9000 test_kmem=absent"
	fake_verdict "PASS $ok" && expect_ok mk boot || return 1
	# the bookkeeping charged too, 8 bytes per 4-byte unit as
	# mm/percpu.c charges; cpu_bytes below where it was
	fake_verdict "PASS $ok possible=4 memcg_percpu=24576/16384/0 unpriv_freed=9000/8000" &&
		expect_ok mk boot || return 1
	# the percpu tracepoints: -1 failures without fail_cpu_alloc
	fake_verdict "PASS $ok trace=12/12/-1" && expect_ok mk boot || return 1
	echo CONFIG_EVENT_TRACING=y >>"$W/build/.config"
	fake_verdict "PASS $ok trace=12/12/2" && expect_ok mk boot || return 1
	fake_verdict "PASS $ok" && expect_fail "trace not run" mk boot &&
		says "trace-built-but-not-run" || return 1
	sed -i '/^CONFIG_EVENT_TRACING=y$/d' "$W/build/.config"
	# a failure the guest explains (KMEM_XFAIL) is noted, not failed
	fake_verdict "PASS $ok test_kmem=5/1/0 test_percpu_basic=pass test_kmem_failed=test_kmem_basic" &&
		expect_ok mk boot && says "test_kmem_basic failed, allowed by KMEM_XFAIL" || return 1
	fake_verdict "PASS $ok test_kmem=5/1/0 test_percpu_basic=pass test_kmem_failed=test_kmem_basic" &&
		expect_fail "no xfail" mk boot KMEM_XFAIL= && says "test_kmem-failed:test_kmem_basic" || return 1
	fake_verdict "PASS $ok test_kmem=6/0/0 test_percpu_basic=pass test_kmem_failed=none test_kmem_flaky=test_kmem_dead_cgroups" &&
		expect_ok mk boot && says "test_kmem_dead_cgroups failed once and passed when run again" || return 1
	grep -q "Command line: .* kmem_xfail=test_kmem_basic" "$W"/logs/boot-*-smp4-max4.log ||
		{ echo "kmem_xfail= not on the command line"; return 1; }
	# test_kmem_dead_cgroups may fail in the debug guest only
	fake_verdict "PASS $ok test_kmem=4/2/0 test_percpu_basic=pass test_kmem_failed=test_kmem_basic,test_kmem_dead_cgroups" &&
		expect_fail "dead_cgroups, normal boot" mk boot && says "test_kmem-failed:test_kmem_dead_cgroups" || return 1
	# test_kmem_memcg_deletion over its bound by what the per-CPU charge
	# caches hold (the kernel's MEMCG_CHARGE_BATCH + 4 pages per CPU:
	# 1114112 bytes with 4 CPUs) is noted; by more, failed
	local del="test_kmem=5/1/0 test_percpu_basic=pass test_kmem_failed=test_kmem_memcg_deletion"
	fake_verdict "PASS $ok $del test_kmem_deletion=1089816/4" &&
		expect_ok mk boot && says "within the per-CPU charge caches (1114112 bytes)" || return 1
	fake_verdict "PASS $ok $del test_kmem_deletion=1114112/4" &&
		expect_fail "deletion past the caches" mk boot && says "test_kmem-failed:test_kmem_memcg_deletion" || return 1
	fake_verdict "PASS $ok $del test_kmem_deletion=1089816/2" &&
		expect_fail "deletion, 2 CPUs" mk boot && says "test_kmem-failed:test_kmem_memcg_deletion" || return 1
	fake_verdict "PASS $ok test_kmem=5/1/0 test_percpu_basic=pass test_kmem_failed=test_kmem_dead_cgroups test_kmem_deletion=1000/4" &&
		expect_fail "another test, an excess" mk boot && says "test_kmem-failed:test_kmem_dead_cgroups" || return 1
	mv "$W/linux/include/linux/memcontrol.h" "$W/memcontrol.h"
	fake_verdict "PASS $ok $del test_kmem_deletion=1089816/4" &&
		expect_fail "deletion, no MEMCG_CHARGE_BATCH" mk boot && says "test_kmem-failed:test_kmem_memcg_deletion" || return 1
	mv "$W/memcontrol.h" "$W/linux/include/linux/memcontrol.h"
	[ "$(DEBUG=1 bash -c '. "$1/scripts/lib.sh" && echo "$KMEM_XFAIL"' - "$R")" = test_kmem_basic,test_kmem_dead_cgroups ] ||
		{ echo "DEBUG=1 does not allow test_kmem_dead_cgroups"; return 1; }
	# the base: no cpu_alloc region, no debugfs test
	fake_verdict "PASS cpus=4/4 memcg_percpu=absent unpriv=150/killed-9/ok unpriv_events=0/3/1 unpriv_region=-1/-1 unpriv_freed=-1/-1" &&
		expect_ok mk boot || return 1
	local v want
	while IFS='|' read -r v want; do
		fake_verdict "PASS $ok $v"
		expect_fail "verdict $v" mk boot && says "$want" || return 1
	done <<EOT
test_kmem=5/1/0 test_percpu_basic=pass test_kmem_failed=test_kmem_memcg_deletion|test_kmem-failed:test_kmem_memcg_deletion
test_kmem=5/1/0 test_percpu_basic=pass test_kmem_failed=test_kmem_memcg_deletion test_kmem_deletion=none|test_kmem-failed:test_kmem_memcg_deletion
test_kmem=5/1/0 test_percpu_basic=pass|test_kmem-failed=1(unnamed)
test_kmem=5/0/1 test_percpu_basic=skip|test_percpu_basic=skip
test_kmem=oops|test_kmem=oops
memcg_percpu=0/16384/0|memcg_percpu-charged-0-not-16384
memcg_percpu=16384/16384/8|memcg_percpu-left-8
possible=4 memcg_percpu=20480/16384/0|memcg_percpu-charged-20480-not-16384
possible=2 memcg_percpu=24576/16384/0|memcg_percpu-charged-24576-not-16384
memcg_percpu=error-12|memcg_percpu=error-12
trace=0/0/1|trace-events(0/0/1)
trace=12/0/1|trace-events(12/0/1)
trace=12/12/0|trace-events(12/12/0)
trace=error-2|trace=error-2
unpriv=0/setuid-1/ok|unpriv-held-none(setuid-1)
unpriv=150/unshare-ENOMEM/netns-12|unpriv-root-failed(netns-12)
unpriv_events=0/0/0|unpriv-stopped-not-on-its-cgroup-limit(unshare-ENOMEM,events=0/0/0)
unpriv_region_full=2|unpriv-region-full(2)
unpriv_region=4000/471000|unpriv-region-nearly-full(4000/471000)
unpriv_freed=9000/9012|unpriv_freed(cpu_bytes)=9000/9012
root_netns=700/unshare-ENOMEM/1/2000/480000 root_netns_freed=9000/9100|root_netns_freed(cpu_bytes)=9000/9100
unpriv=cgroup-2|unpriv=cgroup-2
EOT
	# with the kernel's selftest in the tree, it goes into the
	# initramfs and must have run
	# (a test_kmem.c with what qemu/test_kmem_main.c uses of the tree's)
	mkdir -p "$W/linux/tools/testing/selftests/cgroup"
	cat >"$W/linux/tools/testing/selftests/cgroup/test_kmem.c" <<'EOC'
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define KSFT_PASS 0
#define KSFT_SKIP 4
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
int cg_find_unified_root(char *root, size_t len);
static int cg_read_strstr(const char *c, const char *f, const char *s) { return 0; }
static int cg_write(const char *c, const char *f, char *v) { return 0; }
static void ksft_exit_skip(const char *m) { exit(4); }
static void ksft_test_result_pass(const char *m, const char *n) { printf("ok 1 %s", n); }
static void ksft_test_result_skip(const char *m, const char *n) { printf("ok 1 # SKIP %s", n); }
static void ksft_test_result_fail(const char *m, const char *n) { printf("not ok 1 %s", n); }
static int test_percpu_basic(const char *root) { return KSFT_PASS; }
static struct { int (*fn)(const char *root); const char *name; } tests[] = {
	{ test_percpu_basic, "test_percpu_basic" },
};
int main(void) { return 0; }
EOC
	printf '#include <stddef.h>\nint cg_find_unified_root(char *r, size_t n) { return 0; }\n' \
		>"$W/linux/tools/testing/selftests/cgroup/cgroup_util.c"
	fake_verdict "PASS $ok" && expect_fail "test_kmem not run" mk boot &&
		says "test_kmem-not-run(absent)" || return 1
	grep -q '^file /test_kmem .*/initramfs/test_kmem 0755 0 0$' "$W/initramfs/initramfs.list" ||
		{ echo "test_kmem not in the initramfs"; cat "$W/initramfs/initramfs.list"; return 1; }
	fake_verdict "PASS $ok test_kmem=6/0/0 test_percpu_basic=pass" && expect_ok mk boot || return 1
	# KMEM_SKIP: on the command line, and what it names was skipped
	local sk="test_kmem=4/0/2 test_percpu_basic=pass test_kmem_failed=none test_kmem_ms=900"
	fake_verdict "PASS $ok $sk test_kmem_skipped=test_kmem_basic,test_kmem_memcg_deletion" &&
		expect_ok mk boot KMEM_SKIP=test_kmem_memcg_deletion,test_kmem_basic && says "2 skipped (KMEM_SKIP=" &&
		grep -q "Command line: .* kmem_skip=test_kmem_memcg_deletion,test_kmem_basic" "$W"/logs/boot-*-smp4-max4.log ||
		{ echo "kmem_skip= not on the command line"; return 1; }
	fake_verdict "PASS $ok $sk test_kmem_skipped=test_kmem_basic" &&
		expect_fail "not skipped" mk boot KMEM_SKIP=test_kmem_memcg_deletion,test_kmem_basic &&
		says "test_kmem-not-skipped:test_kmem_memcg_deletion" || return 1
	# by default test_kmem_basic, which this guest always fails
	fake_verdict "PASS $ok test_kmem=5/0/1 test_percpu_basic=pass test_kmem_skipped=test_kmem_basic" &&
		expect_ok mk boot KMEM_SKIP= && says "1 skipped (KMEM_SKIP=test_kmem_basic)" &&
		grep -q "Command line: .* kmem_skip=test_kmem_basic" "$W"/logs/boot-*-smp4-max4.log || return 1
	fake_verdict "PASS $ok test_kmem=6/0/0 test_percpu_basic=pass" &&
		expect_fail "basic not skipped" mk boot KMEM_SKIP= && says "test_kmem-not-skipped:test_kmem_basic" || return 1
	# a test that skipped itself is noted; KMEM_SKIP=none skips nothing
	fake_verdict "PASS $ok $sk test_kmem_skipped=test_kmem_proc_kpagecgroup" &&
		expect_ok mk boot KMEM_SKIP=none && says "test_kmem_proc_kpagecgroup skipped itself" || return 1
	! grep -q "kmem_skip=" "$W"/logs/boot-*-smp4-max4.log || { echo "KMEM_SKIP=none passed on"; return 1; }
	expect_fail "skip percpu" mk boot KMEM_SKIP=test_kmem_basic,test_percpu_basic &&
		says "names test_percpu_basic, the per-cpu charge test" || return 1
	# a selftest that does not build is the host's error, with its log
	echo 'syntax error' >>"$W/linux/tools/testing/selftests/cgroup/cgroup_util.c"
	expect_fail "test_kmem does not build" mk boot && says "cannot build test_kmem" &&
		says "test_kmem-build.log"
}

test_boot_kmemleak_required() {
	expect_ok mk tree && expect_ok mk build || return 1
	local v="PASS cpus=4/4 stress=1000/0/0 stress_delta=0/0"
	# without kmemleak in .config, a missing report is not the host's business
	fake_verdict "$v kmemleak=off" && expect_ok mk boot || return 1
	printf 'CONFIG_DEBUG_KMEMLEAK=y\nCONFIG_CPU_ALLOC_STRESS_TEST=y\n' >>"$W/build/.config"
	fake_verdict "$v kmemleak=missing" && expect_fail "leak not found" mk boot &&
		says "kmemleak-leak-not-reported(kmemleak=missing)" || return 1
	fake_verdict "$v kmemleak=found kmemleak_others=4" && expect_fail "other reports" mk boot &&
		says "kmemleak-reported-4-other-objects" || return 1
	fake_verdict "$v kmemleak=found kmemleak_others=4" && expect_ok mk boot KMEMLEAK_OTHERS=warn &&
		says "kmemleak reported 4 objects besides the planted leak" || return 1
	# a typo does not loosen the check
	expect_fail "a typo" mk boot KMEMLEAK_OTHERS=wran && says "must be fail or warn" || return 1
	fake_verdict "$v" && expect_fail "no kmemleak field" mk boot &&
		says "kmemleak-leak-not-reported(kmemleak=none)" || return 1
	# init's echo of a report header is no splat; a real splat still is
	fake_verdict "$v kmemleak=found" "cpu_alloc-init: kmemleak also reports: unreferenced object 0xffff8880 (size 8): BUG: no" &&
		expect_ok mk boot && says "kmemleak=found" || return 1
	fake_verdict "$v kmemleak=found" "BUG: unable to handle page fault" &&
		expect_fail "splat" mk boot && says "splats=1"
}

test_boot_stress_ops() {
	expect_ok mk tree && expect_ok mk build && expect_ok mk boot || return 1
	! grep -q 'cpu_alloc_stress=' "$W"/logs/boot-*-smp4-max4.log || { echo "stress ops set for a plain kernel"; return 1; }
	expect_ok mk boot STRESS_OPS=5 && grep -q 'Command line: .* cpu_alloc_stress=5' "$W"/logs/boot-*-smp4-max4.log ||
		{ echo "STRESS_OPS=5 not passed"; return 1; }
	# a debug build has its own O= and boots the same way
	expect_ok mk build DEBUG=1 && expect_ok mk boot DEBUG=1 STRESS_OPS=0 &&
		grep -q 'Command line: .* cpu_alloc_stress=0' "$W"/logs/boot-*-smp4-max4-numa.log ||
		{ echo "STRESS_OPS=0 not passed to the debug boot"; return 1; }
	[ -f "$W/build-debug/arch/x86/boot/bzImage" ] || { echo "DEBUG=1 did not build in build-debug"; return 1; }
	# qemu/debug.config has NUMA: the NUMA guest, two nodes, hidden RAM
	grep -q 'Command line: .* mem=5888M cpu_alloc_hotadd=0x170000000' "$W"/logs/boot-*-smp4-max4-numa.log &&
		says "2 NUMA nodes, 5G" || { echo "the debug boot is not the NUMA guest"; return 1; }
}

test_boot_timeout() {
	expect_ok mk tree && expect_ok mk build || return 1
	{ echo FAKE-KERNEL; echo hang; } >"$W/build/arch/x86/boot/bzImage"
	local t0=$SECONDS
	expect_fail "hang" mk boot BOOT_TIMEOUT=2 && says "timeout(2s)" && says "log:" || return 1
	[ $((SECONDS - t0)) -lt 20 ] || { echo "the timeout did not kill QEMU"; return 1; }
	! pgrep -f "$W/build/arch/x86/boot/bzImage" >/dev/null || { echo "QEMU still running"; return 1; }
}

test_boot_smp_check() {
	expect_ok mk tree && expect_ok mk build && expect_ok mk boot SMP=2 && says "smp2" || return 1
	expect_fail "wrong cpu count" env EXPECT_CPUS=3 make --no-print-directory -C "$R" WORK="$W" boot SMP=2 &&
		says "smp-not-3"
}

test_bisect_check_table_and_cache() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: one" a "1" && commit_in_tree "mm: cpu_alloc: two" b "2" &&
		expect_ok mk export || return 1
	expect_ok mk bisect-check && says "mm: cpu_alloc: two" || return 1
	[ "$(grep -c ' PASS$' "$T/out")" = 2 ] || { echo "want 2 PASS rows"; cat "$T/out"; return 1; }
	# the base is compiled as objects only, never built or booted
	says "BASE (objects only)" && [ ! -e "$W/build-base/arch/x86/boot/bzImage" ] || return 1
	# each commit's boot skips two tests of test_kmem
	grep -q "Command line: .* kmem_skip=test_kmem_basic,test_kmem_memcg_deletion" "$W"/logs/boot-*-smp4-max4.log ||
		{ echo "bisect-check's boots run all of test_kmem"; return 1; }
	# cached: a second run builds nothing
	expect_ok mk bisect-check || return 1
	! grep -q BUILD "$T/out" || return 1
	ls "$W"/logs/build-*.log | wc -l | grep -qx 2 || return 1
	# what the boots skip decides the result: another KMEM_SKIP boots again
	expect_ok mk bisect-check KMEM_SKIP=none && [ "$(grep -c ' PASS$' "$T/out")" = 2 ] || return 1
	! grep -q "kmem_skip=" "$W"/logs/boot-*-smp4-max4.log || { echo "KMEM_SKIP=none not passed on"; return 1; }
}

# A commit that changes only files the build of its parent did not
# read (no .cmd file names them) is neither built nor booted: SAME.  A
# header that an object read, a file that is not .c or .h, and any
# commit after a cached row whose build $O does not hold are built.
test_bisect_check_unseen() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: leave drivers/x.c out" not-built "drivers/x.c" &&
		commit_in_tree "drivers: cpu_alloc: unbuilt file" drivers/x.c "int x;" &&
		commit_in_tree "mm: cpu_alloc: a header objects read" include/linux/memcontrol.h "/* changed */" &&
		commit_in_tree "mm: cpu_alloc: a header no object reads" include/linux/unread.h "/* new */" &&
		commit_in_tree "kernel: cpu_alloc: a built file" kernel/broken.c "int z;" &&
		expect_ok mk export || return 1
	expect_ok mk bisect-check || return 1
	local row
	for row in "leave drivers/x.c out:PASS" "unbuilt file:SAME" "a header objects read:PASS" \
		"a header no object reads:SAME" "a built file:PASS"; do
		grep -q "${row%%:*}.* ${row#*:}\$" "$T/out" || { echo "want ${row#*:} for: ${row%%:*}"; cat "$T/out"; return 1; }
	done
	says "SAME: 2 commits change no file" || return 1
	# the base's object of the built .c file, for sparse's baseline:
	# compiled once, after the last commit
	grep -qx 'kernel/broken.c' "$W"/results/*/objs-*/compiled &&
		grep -A1 'a built file' "$T/out" | tail -n1 | grep -q 'BASE    compiling 1 files' ||
		{ echo "the base's objects were not compiled once, at the end"; cat "$T/out"; return 1; }
	[ "$(ls "$W"/logs/build-*.log | wc -l)" = 3 ] || { echo "want 3 builds"; ls "$W"/logs; return 1; }
	# make check takes the SAME commits' sparse results: nothing built
	expect_ok mk check I386=0 WIDE=0 && says "no built .c file touched" || return 1
	! ls "$W"/logs/check-build-* >/dev/null 2>&1 || { echo "make check built a commit"; return 1; }
	# cached: the rows again, nothing built
	expect_ok mk bisect-check && ! grep -q BUILD "$T/out" && says "SAME: 2 commits" || return 1
	# UNSEEN=0: every commit built and booted
	expect_ok mk bisect-check UNSEEN=0 && [ "$(grep -c ' PASS$' "$T/out")" = 5 ] || { echo "UNSEEN=0: want 5 PASS rows"; return 1; }
	expect_fail "bad UNSEEN" mk bisect-check UNSEEN=2 && says "UNSEEN=2: must be 0 or 1"
}

test_bisect_check_stops_at_boot_failure() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: good" a "1" && commit_in_tree "mm: cpu_alloc: panics" boot "panic" &&
		commit_in_tree "mm: cpu_alloc: after" c "3" && expect_ok mk export || return 1
	expect_fail "boot failure" mk bisect-check && says "BOOT-FAIL" && says "log:" || return 1
	! says "mm: cpu_alloc: after" >/dev/null || { echo "went past the failure"; return 1; }
}

test_bisect_check_new_warning() {
	expect_ok mk tree || return 1
	# the fake base warns about kernel/fake.c (its file "warnings"):
	# compiled at the base as an object, that is not new; a commit
	# adding a warning is
	commit_in_tree "mm: cpu_alloc: warns" warnings "$(cat "$W/linux/warnings")
kernel/fake.c: unused variable y" && expect_ok mk export || return 1
	expect_fail "new warning" mk bisect-check && says "NEW-WARNINGS" && says "kernel/fake.c: unused variable y" || return 1
	! says "unused variable x" >/dev/null || { echo "the base's warning counted as new"; return 1; }
	grep -qx "kernel/fake.c: unused variable x" "$W"/results/*/objs-*/warnings || return 1
	# listed in the ignore file, it passes
	echo "kernel/fake.c: unused variable y" >>"$R/checkpatch/build-warnings.ignore"
	expect_ok mk bisect-check
}

# trace_order FILE: the builds and boot ends of a FAKE_TRACE file, on
# one line (a boot's start depends on how fast its script sets up).
trace_order() { grep -v 'boot-start\|configure' "$1" | paste -sd' '; }

# A commit boots in the background while the next one builds; the
# rows, and the failure reported, are still those of a serial run.
test_bisect_check_overlap() {
	local trace=$T/trace
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: slow" boot "slow" && commit_in_tree "mm: cpu_alloc: fast" boot "pass" &&
		expect_ok mk export || return 1
	: >"$trace"
	FAKE_TRACE=$trace expect_ok mk bisect-check || return 1
	# the second build ran before the first boot ended
	[ "$(trace_order "$trace")" = "build build boot-end boot-end" ] ||
		{ echo "not overlapped:"; cat "$trace"; return 1; }
	grep -A1 'mm: cpu_alloc: slow' "$T/out" | tail -n1 | grep -q 'mm: cpu_alloc: fast.* PASS$' ||
		{ echo "rows out of order"; cat "$T/out"; return 1; }
	# OVERLAP=0: each boot ends before the next build
	: >"$trace"
	FAKE_TRACE=$trace expect_ok mk bisect-check FRESH=1 OVERLAP=0 || return 1
	[ "$(trace_order "$trace")" = "build boot-end build boot-end" ] ||
		{ echo "overlapped with OVERLAP=0:"; cat "$trace"; return 1; }
	expect_fail "bad OVERLAP" mk bisect-check OVERLAP=yes && says "OVERLAP=yes: must be 0 or 1"
}

# A boot that fails while the next commit fails to build: the boot's
# failure is the one reported, and no QEMU is left running.
test_bisect_check_overlap_failures() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: panics" boot "panic" &&
		commit_in_tree "mm: cpu_alloc: breaks the build" build-error "broken" && expect_ok mk export || return 1
	expect_fail "boot failure" mk bisect-check && says "BOOT-FAIL" || return 1
	! grep -q BUILD-FAIL "$T/out" || { echo "reported the later build failure"; return 1; }
	# with the first commit booting fine, the build failure comes after its row
	git -C "$W/linux" reset -q --hard base &&
		commit_in_tree "mm: cpu_alloc: boots" boot "slow" &&
		commit_in_tree "mm: cpu_alloc: breaks the build" build-error "broken" && expect_ok mk export || return 1
	expect_fail "build failure" mk bisect-check && says "BUILD-FAIL" || return 1
	grep -A1 'mm: cpu_alloc: boots' "$T/out" | tail -n1 | grep -q 'breaks the build.*BUILD-FAIL$' ||
		{ echo "rows out of order"; cat "$T/out"; return 1; }
	grep -q 'mm: cpu_alloc: boots.* PASS$' "$T/out" || { echo "the booting commit lost its row"; return 1; }
	! pgrep -f "$W/bisect-boot" >/dev/null || { echo "a boot is still running"; return 1; }
}

test_check_checkpatch() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: clean" a "fine" && expect_ok mk export || return 1
	expect_ok mk check SPARSE=0 && says "OK      checkpatch 0001" || return 1
	commit_in_tree "mm: cpu_alloc: bad style" b "checkpatch-warn" && expect_ok mk export || return 1
	expect_fail "checkpatch warning" mk check SPARSE=0 && says "FAKE_WARN" || return 1
	echo "0002-*.patch FAKE_WARN  a test" >>"$R/checkpatch/checkpatch.ignore"
	expect_ok mk check SPARSE=0 || return 1
	# a helper that fails (spdxcheck.py without python3-ply) is no pass
	commit_in_tree "mm: cpu_alloc: new file" c "checkpatch-traceback" && expect_ok mk export || return 1
	expect_fail "helper failed" mk check SPARSE=0 && says "FAIL    checkpatch 0003" &&
		says "a helper of checkpatch failed" && says "python3-ply"
}

# make check keeps each checkpatch run: the same patch on the same tree
# is not checked again, a changed patch, a changed tree or a dirty one
# is, and CHECKPATCH_CACHE=none runs it every time.  A failed helper's
# run is not kept.
test_check_checkpatch_cache() {
	local log=$T/cp.log
	export CHECKPATCH_CACHE=$T/cpcache FAKE_CHECKPATCH_LOG=$log
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: bad style" a "checkpatch-warn" && expect_ok mk export || return 1
	expect_fail "checkpatch warning" mk check SPARSE=0 && says "FAKE_WARN" || return 1
	[ "$(wc -l <"$log")" = 1 ] || { echo "checkpatch ran $(wc -l <"$log") times, not once"; return 1; }
	# from the cache: the same verdict, no run, even from another
	# checkout of the repository (the output names the patch there)
	expect_fail "checkpatch warning (cached)" mk check SPARSE=0 && says "FAKE_WARN" || return 1
	cp -r "$R" "$T/repo2"
	expect_fail "checkpatch warning (cached, elsewhere)" \
		make --no-print-directory -C "$T/repo2" WORK="$W" check SPARSE=0 &&
		says "$T/repo2/commits/0001-mm-cpu_alloc-bad-style.patch:20: WARNING:FAKE_WARN" || return 1
	[ "$(wc -l <"$log")" = 1 ] || { echo "a cached run ran checkpatch again"; cat "$T/out"; return 1; }
	echo "0001-*.patch FAKE_WARN  a test" >>"$R/checkpatch/checkpatch.ignore"
	expect_ok mk check SPARSE=0 && [ "$(wc -l <"$log")" = 1 ] || return 1
	CHECKPATCH_CACHE=none expect_ok mk check SPARSE=0 && [ "$(wc -l <"$log")" = 2 ] ||
		{ echo "CHECKPATCH_CACHE=none did not run checkpatch"; return 1; }
	# a new commit changes the tree: both patches run again
	commit_in_tree "mm: cpu_alloc: clean" b "fine" && expect_ok mk export || return 1
	expect_ok mk check SPARSE=0 && [ "$(wc -l <"$log")" = 4 ] ||
		{ echo "after a new commit: $(wc -l <"$log") runs, not 4"; return 1; }
	# a dirty tree: not from the cache, and not kept
	echo dirty >"$W/linux/untracked-file"
	expect_ok mk check SPARSE=0 && [ "$(wc -l <"$log")" = 6 ] || { echo "a dirty tree used the cache"; return 1; }
	rm "$W/linux/untracked-file"
	expect_ok mk check SPARSE=0 && [ "$(wc -l <"$log")" = 6 ] || { echo "the clean tree's runs were lost"; return 1; }
	# a helper that failed is run again next time
	commit_in_tree "mm: cpu_alloc: new file" c "checkpatch-traceback" && expect_ok mk export || return 1
	expect_fail "helper failed" mk check SPARSE=0 && says "a helper of checkpatch failed" || return 1
	expect_fail "helper failed again" mk check SPARSE=0 && says "a helper of checkpatch failed" &&
		[ "$(grep -c 0003 "$log")" = 2 ] || { echo "a failed helper's run was kept"; return 1; }
}

test_check_sparse_new_only() {
	# the fake base's sparse already complains about kernel/fake.c
	expect_ok mk tree || return 1
	commit_in_tree "kernel: cpu_alloc: touch fake.c" kernel/fake.c "int fake2;" && expect_ok mk export || return 1
	expect_ok mk check && says "no new warnings" || return 1
	printf 'kernel/fake.c: new sparse complaint\n' >>"$W/linux/sparse"
	git -C "$W/linux" commit -q -a --amend --no-edit && expect_ok mk export || return 1
	expect_fail "new sparse warning" mk check && says "kernel/fake.c: warning: new sparse complaint" || return 1
	! says "old sparse complaint" >/dev/null
}

# sparse's runs are kept: the same object, with the same flags, config
# and files read, is not checked again (a new WORK still finds it); a
# changed header is, and SPARSE_CACHE=none runs sparse every time.
test_check_sparse_cache() {
	local log=$T/sparse.log
	export SPARSE_CACHE=$T/scache FAKE_SPARSE_LOG=$log
	expect_ok mk tree || return 1
	commit_in_tree "kernel: cpu_alloc: touch fake.c" kernel/fake.c "int fake2;" && expect_ok mk export || return 1
	expect_ok mk check I386=0 WIDE=0 ARM64=0 && says "no new warnings" || return 1
	local n
	n=$(grep -c . "$log")
	[ "$n" -gt 0 ] || { echo "sparse never ran"; return 1; }
	# the same checks from scratch: no sparse run, the same verdict
	rm -rf "$W/results" "$W/logs"
	expect_ok mk check I386=0 WIDE=0 ARM64=0 && says "no new warnings" || return 1
	[ "$(grep -c . "$log")" = "$n" ] || { echo "sparse ran again: $(grep -c . "$log") runs, not $n"; cat "$log"; return 1; }
	# a new complaint for the same file: what sparse says is its input too
	printf 'kernel/fake.c: new sparse complaint\n' >>"$W/linux/sparse"
	git -C "$W/linux" commit -q -a --amend --no-edit && expect_ok mk export || return 1
	expect_fail "new sparse warning (cache)" mk check I386=0 WIDE=0 ARM64=0 &&
		says "kernel/fake.c: warning: new sparse complaint" || return 1
	# a changed header: run again
	n=$(grep -c . "$log")
	rm -rf "$W/results" "$W/logs"
	echo "/* changed */" >>"$W/linux/include/linux/memcontrol.h"
	git -C "$W/linux" commit -q -a --amend --no-edit && expect_ok mk export || return 1
	expect_fail "new sparse warning (header)" mk check I386=0 WIDE=0 ARM64=0 || return 1
	[ "$(grep -c . "$log")" -gt "$n" ] || { echo "a changed header did not run sparse again"; return 1; }
	n=$(grep -c . "$log")
	rm -rf "$W/results" "$W/logs"
	SPARSE_CACHE=none expect_fail "new sparse warning (no cache)" mk check I386=0 WIDE=0 ARM64=0 || return 1
	[ "$(grep -c . "$log")" -gt "$n" ] || { echo "SPARSE_CACHE=none did not run sparse"; return 1; }
}

# One object of the base that does not compile (the fake base's
# kernel/broken.c) must not lose the baseline of the others.
test_check_sparse_base_object_fails() {
	expect_ok mk tree || return 1
	printf 'int fake2;\n' >>"$W/linux/kernel/fake.c"
	printf 'int broken2;\n' >>"$W/linux/kernel/broken.c"
	git -C "$W/linux" commit -q -a -m "kernel: cpu_alloc: touch both" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		expect_ok mk export || return 1
	expect_ok mk check I386=0 && says "no new warnings" || return 1
	grep -q 'old sparse complaint' "$W"/results/*/objs-*/sparse
}

test_check_sparse_skips_unbuilt() {
	# a .c file the configuration does not build is not checked
	expect_ok mk tree || return 1
	commit_in_tree "kernel: cpu_alloc: add other.c" kernel/other.c "int other;" || return 1
	printf 'kernel/other.c\n' >"$W/linux/not-built"
	printf 'kernel/other.c: complaint about an unbuilt file\n' >>"$W/linux/sparse"
	git -C "$W/linux" add -f not-built sparse && git -C "$W/linux" commit -q --amend --no-edit &&
		expect_ok mk export || return 1
	expect_ok mk check && says "kernel/other.c not built by this configuration" || return 1
	! says "complaint about an unbuilt file" >/dev/null
}

# make check compiles the touched files for i386 with NUMA too: an
# error the base lacks fails; a file the Makefile does not build is
# skipped; I386=0 skips the whole step.
test_check_i386() {
	expect_ok mk tree || return 1
	commit_in_tree "kernel: cpu_alloc: touch fake.c" kernel/fake.c "int fake2;" &&
		commit_in_tree "kernel: cpu_alloc: add other.c" kernel/other.c "int other;" && expect_ok mk export || return 1
	expect_ok mk check SPARSE=0 && says "OK      i386" && says "1 files compiled, nothing new" &&
		says "kernel/other.c not built by the i386 configuration" || return 1
	grep -qx 'CONFIG_X86_32=y' "$W/build-i386/.config" || { echo "not an i386 config"; return 1; }
	# a file the base has that does not compile at the base either (its
	# Makefile line sits in a condition the driver cannot read): not
	# built by i386 after all, skipped and not counted as compiled by it
	printf 'kernel/fake.c\n' >"$T/obj-errors"
	# (the first check's pass is kept: this compiler is another one)
	rm -f "$W/build-i386/.cpu-alloc-passed"
	FAKE_OBJ_ERRORS=$T/obj-errors expect_ok mk check SPARSE=0 &&
		says "kernel/fake.c not built by the i386 configuration (no object at the base either)" || return 1
	! grep -q 'kernel/fake.c: .*i386' "$W/logs/compiled-by.txt" || { cat "$W/logs/compiled-by.txt"; return 1; }
	# I386=only: that compile alone (make test runs it behind
	# bisect-check); its pass is kept, and make check then compiles
	# nothing for i386, and still does not count kernel/fake.c as
	# compiled by it
	rm -f "$W/build-i386/.cpu-alloc-passed"
	FAKE_OBJ_ERRORS=$T/obj-errors expect_ok mk check I386=only && says "CHECK   i386: clean" &&
		says "1 files compiled, nothing new" && ! says "OK      checkpatch" >/dev/null || return 1
	FAKE_OBJ_ERRORS=$T/obj-errors expect_ok mk check SPARSE=0 &&
		says "passed for this series and this configuration" && ! says "files compiled" >/dev/null || return 1
	! grep -q 'kernel/fake.c: .*i386' "$W/logs/compiled-by.txt" || { cat "$W/logs/compiled-by.txt"; return 1; }
	expect_fail "two onlys" mk check I386=only WIDE=only && says "WIDE=only and I386=only together" || return 1
	expect_fail "a bad I386" mk check I386=2 && says "I386=2: must be 0, 1 or only" || return 1
	printf 'kernel/fake.c: implicit declaration of function x\n' >"$W/linux/i386-errors"
	echo "int fake3;" >>"$W/linux/kernel/fake.c"
	git -C "$W/linux" add -f i386-errors kernel/fake.c &&
		git -C "$W/linux" commit -q -m "kernel: cpu_alloc: break i386" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		expect_ok mk export || return 1
	expect_fail "an i386 error" mk check SPARSE=0 && says "new errors or warnings in kernel/fake.c" &&
		says "kernel/fake.c: error: implicit declaration of function x" || return 1
	expect_ok mk check SPARSE=0 I386=0 && ! grep -q "^  [A-Z]* *i386 " "$T/out" || return 1
	# fixed by the next commit: every commit is still compiled, and the
	# broken one fails; CHECK_COMMITS=head (make test's) compiles the
	# head only, and says so
	git -C "$W/linux" rm -q i386-errors && echo "int fake4;" >>"$W/linux/kernel/fake.c" &&
		git -C "$W/linux" commit -q -a -m "kernel: cpu_alloc: mend i386" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		expect_ok mk export || return 1
	expect_fail "an i386 error, mended later" mk check SPARSE=0 && says "new errors or warnings in kernel/fake.c" || return 1
	expect_ok mk check SPARSE=0 CHECK_COMMITS=head && says "i386: the head only (CHECK_COMMITS=head)" &&
		! says "new errors" >/dev/null || return 1
	# a head-only pass is not a pass of every commit
	expect_fail "after a head-only pass" mk check SPARSE=0 && says "new errors or warnings in kernel/fake.c" || return 1
	expect_fail "a bad CHECK_COMMITS" mk check CHECK_COMMITS=some && says "CHECK_COMMITS=some: must be all or head" || return 1
	# a head that touches no file i386 builds is still judged with
	# every file compiled there: the error in kernel/fake.c is new
	printf 'kernel/fake.c: implicit declaration of function y\n' >"$W/linux/i386-errors"
	echo "int other2;" >>"$W/linux/kernel/other.c"
	git -C "$W/linux" add -f i386-errors kernel/other.c &&
		git -C "$W/linux" commit -q -m "kernel: cpu_alloc: break i386 from afar" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		expect_ok mk export || return 1
	expect_fail "an error at a head that touches no built file" mk check SPARSE=0 CHECK_COMMITS=head &&
		says "kernel/fake.c: error: implicit declaration of function y" || return 1
}

# make convert-report counts the alloc_percpu-family calls left: not a
# comment line, not a name inside a string literal.
test_convert_report() {
	expect_ok mk tree || return 1
	printf '%s\n' '#include <linux/percpu.h>' 'void f(void)' '{' \
		'	p = alloc_percpu(int);' '	q = __alloc_percpu_gfp(8, 8, GFP_KERNEL);' \
		'	/* alloc_percpu(int) in a comment */' '	 * alloc_percpu(long) in a block comment' \
		'	pr_err("alloc_percpu(fds) failed\n");' '	pr_err("x\"y"); r = alloc_percpu(long);' \
		'	free_percpu(p);' '}' >"$W/linux/kernel/left.c"
	git -C "$W/linux" add -f kernel/left.c && git -C "$W/linux" commit -q -m "kernel: left" || return 1
	expect_ok mk convert-report && says "remaining alloc_percpu-family call sites: 3 in 1 files" &&
		says "kernel/left.c:4: p = alloc_percpu(int);" && says 'kernel/left.c:9: pr_err("x\"y"); r = alloc_percpu(long);' &&
		! says "failed" >/dev/null && says "free_percpu() calls left: 1" || return 1
	# none left: zero of each, not a failure
	printf '%s\n' 'void f(void) { }' >"$W/linux/kernel/left.c"
	git -C "$W/linux" commit -q -a -m "kernel: none left" || return 1
	expect_ok mk convert-report && says "remaining alloc_percpu-family call sites: 0 in 0 files" &&
		says "free_percpu() calls left: 0"
}

# make check compiles under allmodconfig (checkpatch/wide.config) every
# file of the series at the head, and a file the boot config does not
# build at the commit that touches it; an error the base lacks fails;
# a file no configuration compiles is listed; a pass is kept; WIDE=only
# runs that compile alone; WIDE=0 skips.
test_check_wide() {
	expect_ok mk tree || return 1
	# wide.o by its own line; listed.o by a list that obj-y takes in
	printf '%s\n' 'obj-y += fake.o' 'obj-$(CONFIG_WIDE_ONLY) += wide.o' 'lst-$(CONFIG_WIDE_ONLY) += listed.o' \
		'obj-y += $(lst-y)' >"$W/linux/kernel/Makefile"
	printf 'int listed;\n' >"$W/linux/kernel/listed.c"
	git -C "$W/linux" add -f kernel/listed.c
	git -C "$W/linux" add -f kernel/Makefile &&
		commit_in_tree "kernel: cpu_alloc: add wide.c" kernel/wide.c "int wide;" &&
		commit_in_tree "kernel: cpu_alloc: add other.c" kernel/other.c "int other;" &&
		commit_in_tree "kernel: cpu_alloc: touch fake.c" kernel/fake.c "int fake2;" || return 1
	# a file #included by wide.c, under an #ifdef of a symbol that is set
	printf 'int wide;\n#ifdef CONFIG_WIDE_ONLY\n#include "part.c"\n#endif\n' >"$W/linux/kernel/wide.c"
	git -C "$W/linux" add -f kernel/wide.c &&
		commit_in_tree "kernel: cpu_alloc: add part.c" kernel/part.c "int part;" && expect_ok mk export || return 1
	expect_ok mk build && expect_ok mk check SPARSE=0 I386=0 || return 1
	says "CONFIG  x86_64 allmodconfig" && says "kernel/other.c not built by allmodconfig" &&
		says "no configuration (boot, wide, arm64) compiles: kernel/other.c" || return 1
	# wide.c, listed.c and fake.c at the head; at the commit that adds
	# them, wide.c again (it changes after), not listed.c (nothing its
	# object read changes after)
	[ "$(grep -c 'OK      wide .*files compiled' "$T/out")" = 2 ] &&
		says "1 files compiled, 1 as at the head (they read the same files), nothing new" &&
		says "3 files compiled, nothing new" ||
		{ echo "expected two wide compiles"; return 1; }
	grep -qx 'CONFIG_FAKE_ALLMODCONFIG=y' "$W/build-wide/.config" &&
		! grep -q '^CONFIG_WERROR=y' "$W/build-wide/.config" || { echo "not allmodconfig without WERROR"; return 1; }
	grep -qx 'kernel/wide.c: wide' "$W/logs/compiled-by.txt" &&
		grep -qx 'kernel/fake.c: boot wide' "$W/logs/compiled-by.txt" &&
		grep -qx 'kernel/part.c: wide' "$W/logs/compiled-by.txt" &&
		grep -qx 'kernel/listed.c: wide' "$W/logs/compiled-by.txt" || { cat "$W/logs/compiled-by.txt"; return 1; }
	# the pass is kept: the same series checked again compiles nothing
	expect_ok mk check SPARSE=0 I386=0 && says "passed for this series and these configurations" &&
		! says "files compiled, nothing new" >/dev/null && grep -qx 'kernel/part.c: wide' "$W/logs/compiled-by.txt" || return 1
	# WIDE=only: that compile alone, which needs no build of the boot config
	rm -rf "$W/build-wide/.cpu-alloc-passed" "$W/build"
	expect_ok mk check WIDE=only && says "3 files compiled, nothing new" && says "CHECK   wide: clean" &&
		! says "checkpatch" >/dev/null && ! says "no configuration" >/dev/null || return 1
	[ "$(grep -c 'OK      wide .*files compiled.*nothing new' "$T/out")" = 2 ] || { cat "$T/out"; return 1; }
	printf 'kernel/wide.c: implicit declaration of function y\n' >"$W/linux/wide-errors"
	git -C "$W/linux" add -f wide-errors && git -C "$W/linux" commit -q --amend --no-edit &&
		expect_ok mk export || return 1
	expect_fail "an allmodconfig error" mk check SPARSE=0 I386=0 && says "new errors or warnings in kernel/fake.c kernel/listed.c kernel/wide.c" &&
		says "kernel/wide.c: error: implicit declaration of function y" || return 1
	expect_ok mk check SPARSE=0 I386=0 WIDE=0 && ! grep -q "^  [A-Z]* *wide " "$T/out" || return 1
	expect_fail "a bad WIDE" mk check WIDE=yes && says "WIDE=yes: must be 0, 1 or only" || return 1
	# the spellings of a symbol's value that kbuild allows, and an
	# object that the Makefile of the directory above names
	printf '%s\n' 'obj-$(subst m,y,$(CONFIG_WIDE_ONLY)) += subst.o' 'comp-${CONFIG_WIDE_ONLY} += sub/deep.o' \
		'obj-$(CONFIG_WIDE_ONLY:m=y) += comp.o' >>"$W/linux/kernel/Makefile"
	mkdir -p "$W/linux/kernel/sub" && printf 'int deep;\n' >"$W/linux/kernel/sub/deep.c"
	git -C "$W/linux" rm -q wide-errors && git -C "$W/linux" commit -q --amend --no-edit &&
		git -C "$W/linux" add -f kernel/Makefile kernel/sub/deep.c &&
		commit_in_tree "kernel: cpu_alloc: add subst.c" kernel/subst.c "int subst;" && expect_ok mk export || return 1
	expect_ok mk build && expect_ok mk check SPARSE=0 I386=0 || return 1
	grep -qx 'kernel/subst.c: wide' "$W/logs/compiled-by.txt" && grep -qx 'kernel/sub/deep.c: wide' "$W/logs/compiled-by.txt" ||
		{ cat "$W/logs/compiled-by.txt"; return 1; }
}

# regen.sh --apply: a semantic patch that fails after it rewrote a
# file leaves no commit and no change in the work tree.
test_regen_apply_fails_clean() {
	expect_ok mk tree || return 1
	# fake.c is rewritten, then two.c fails
	printf '%s\n' '/// kernel: cpu_alloc: a failing conversion' '//' '// Confidence: High' '// Options:' \
		'// Files: kernel/fake.c kernel/two.c' 'virtual patch' '@r@' 'identifier x;' 'position p;' '@@' \
		'- int x@p;' '+ int y;' '@script:python depends on r@' 'p << r.p;' '@@' \
		'if p[0].file.endswith("two.c"): raise Exception("boom")' >"$R/coccinelle/boom.cocci"
	commit_in_tree "kernel: add two.c" kernel/two.c "int two;" || return 1
	local head
	head=$(git -C "$W/linux" rev-parse HEAD)
	expect_fail "a failing .cocci" env WORK="$W" "$R/scripts/regen.sh" --apply boom.cocci &&
		says "boom.cocci made no commit" || return 1
	[ "$(git -C "$W/linux" rev-parse HEAD)" = "$head" ] && [ -z "$(git -C "$W/linux" status --porcelain)" ] ||
		{ echo "the work tree changed"; git -C "$W/linux" status --short; return 1; }
}

# regen's cache of spatch runs: the same run again takes its result
# from the cache without running spatch and makes the same commit; a
# changed .cocci or SPATCH_CACHE=none runs spatch again.
test_regen_spatch_cache() {
	expect_ok mk tree || return 1
	printf '%s\n' '/// kernel: cpu_alloc: rename fake' '//' '// Confidence: High' '// Options:' \
		'// Files: kernel/fake.c kernel/two.c' 'virtual patch' '@@' '@@' '- int fake;' '+ int faux;' \
		>"$R/coccinelle/ren.cocci"
	commit_in_tree "kernel: add two.c" kernel/two.c "int fake;" || return 1
	mkdir -p "$T/bin"
	printf '%s\n' '#!/bin/sh' 'case " $* " in *" --sp-file "*) echo run >>"$SPATCH_RUNS" ;; esac' \
		'exec spatch "$@"' >"$T/bin/spatch"
	chmod +x "$T/bin/spatch"
	export SPATCH="$T/bin/spatch" SPATCH_RUNS=$T/runs SPATCH_CACHE=$T/cache
	local head tree runs
	head=$(git -C "$W/linux" rev-parse HEAD)
	regen_once() { # a fresh --apply on $head; the number of spatch runs
		git -C "$W/linux" reset -q --hard "$head" && : >"$T/runs" &&
			expect_ok env WORK="$W" "$R/scripts/regen.sh" --apply ren.cocci || return 1
		runs=$(wc -l <"$T/runs")
	}
	regen_once && [ "$runs" = 2 ] || { echo "first run: $runs spatch runs, not 2"; return 1; }
	tree=$(git -C "$W/linux" rev-parse HEAD^{tree})
	grep -qx 'int faux;' "$W/linux/kernel/two.c" || { echo "two.c not rewritten"; return 1; }
	regen_once && [ "$runs" = 0 ] || { echo "second run: $runs spatch runs, not 0"; return 1; }
	[ "$(git -C "$W/linux" rev-parse HEAD^{tree})" = "$tree" ] || { echo "the cached run made another tree"; return 1; }
	echo '// a comment' >>"$R/coccinelle/ren.cocci"
	regen_once && [ "$runs" = 2 ] || { echo "changed .cocci: $runs spatch runs, not 2"; return 1; }
	SPATCH_CACHE=none regen_once && [ "$runs" = 2 ] || { echo "SPATCH_CACHE=none: $runs spatch runs, not 2"; return 1; }
	[ "$(git -C "$W/linux" rev-parse HEAD^{tree})" = "$tree" ]
}

# The arm64 part of the wide compile: the files x86_64 allmodconfig
# does not build, compiled under arm64 allmodconfig with the cross
# compiler (CROSS_COMPILE, checked by the fake tree), at their commit
# and at the head; arch/arm64 is arm64's alone, arch/arm nobody's; a
# new arm64 error fails; ARM64=0 leaves the part out.
test_check_arm64() {
	expect_ok mk tree || return 1
	printf '%s\n' 'obj-y += fake.o' 'obj-$(CONFIG_ARM64_ONLY) += armonly.o' >"$W/linux/kernel/Makefile"
	mkdir -p "$W/linux/arch/arm64/kernel" "$W/linux/arch/arm/kernel"
	printf 'obj-y += a64.o\n' >"$W/linux/arch/arm64/kernel/Makefile"
	printf 'obj-y += a32.o\n' >"$W/linux/arch/arm/kernel/Makefile"
	printf 'int a32;\n' >"$W/linux/arch/arm/kernel/a32.c"
	printf 'int a64;\n' >"$W/linux/arch/arm64/kernel/a64.c"
	git -C "$W/linux" add -f kernel/Makefile arch &&
		commit_in_tree "arm64: cpu_alloc: add armonly.c" kernel/armonly.c "int armonly;" &&
		commit_in_tree "kernel: cpu_alloc: touch fake.c" kernel/fake.c "int fake2;" && expect_ok mk export || return 1
	expect_ok mk build && expect_ok mk check SPARSE=0 I386=0 || return 1
	says "CONFIG  arm64 allmodconfig" && says "arch/arm/kernel/a32.c not built by arm64 allmodconfig" &&
		says "no configuration (boot, wide, arm64) compiles: arch/arm/kernel/a32.c" || return 1
	# both at the head; at the earlier commit, nothing they read changes after
	says "arm64 $(git -C "$W/linux" rev-parse --short=12 cpu-alloc~1): 0 files compiled, 2 as at the head" &&
		says "arm64 $(git -C "$W/linux" rev-parse --short=12 cpu-alloc): 2 files compiled, nothing new" || return 1
	# a header they read changes after: compiled again at the earlier commit
	commit_in_tree "mm: cpu_alloc: a header" include/linux/memcontrol.h "/* changed */" && expect_ok mk export || return 1
	expect_ok mk check SPARSE=0 I386=0 WIDE=only &&
		says "arm64 $(git -C "$W/linux" rev-parse --short=12 cpu-alloc~2): 2 files compiled, nothing new" || return 1
	grep -qx 'CONFIG_ARM64=y' "$W/build-arm64/.config" && ! grep -q '^CONFIG_ARM64' "$W/build-wide/.config" ||
		{ echo "ARM64 not in the arm64 configuration alone"; return 1; }
	grep -qx 'kernel/armonly.c: arm64' "$W/logs/compiled-by.txt" &&
		grep -qx 'arch/arm64/kernel/a64.c: arm64' "$W/logs/compiled-by.txt" &&
		grep -qx 'kernel/fake.c: boot wide' "$W/logs/compiled-by.txt" || { cat "$W/logs/compiled-by.txt"; return 1; }
	printf 'kernel/armonly.c: implicit declaration of function z\n' >"$W/linux/arm64-errors"
	git -C "$W/linux" add -f arm64-errors && git -C "$W/linux" commit -q --amend --no-edit &&
		expect_ok mk export || return 1
	expect_fail "an arm64 error" mk check SPARSE=0 I386=0 WIDE=only &&
		says "FAIL    arm64 " && says "kernel/armonly.c: error: implicit declaration of function z" || return 1
	# an error that the ignore list hides still leaves no object
	git -C "$W/linux" rm -q arm64-errors && printf 'kernel/armonly.c\n' >>"$W/linux/obj-errors" &&
		git -C "$W/linux" add -f obj-errors && git -C "$W/linux" commit -q --amend --no-edit &&
		expect_ok mk export || return 1
	cp "$R/checkpatch/build-warnings.ignore" "$T/ignore.saved"
	echo 'this object never compiles' >>"$R/checkpatch/build-warnings.ignore"
	expect_fail "an object that does not come out" mk check SPARSE=0 I386=0 WIDE=only &&
		says "no object for kernel/armonly.c" || return 1
	cp "$T/ignore.saved" "$R/checkpatch/build-warnings.ignore"
	expect_ok mk check SPARSE=0 I386=0 ARM64=0 && ! grep -q "^  [A-Z]* *arm64 " "$T/out" &&
		says "no configuration (boot, wide) compiles: arch/arm/kernel/a32.c arch/arm64/kernel/a64.c kernel/armonly.c" || return 1
	expect_fail "a bad ARM64" mk check ARM64=yes && says "ARM64=yes: must be 0 or 1" || return 1
}

# make check disassembles the head's CPU_PTR() probe: arithmetic
# passes, a load from a table fails.
test_check_cpu_ptr_probe() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: add the probe" mm/cpu_alloc_test.c \
		"unsigned long cpu_alloc_test_cpu_ptr(unsigned long p, unsigned int cpu) { return 0xfffffe8000000000UL + p + ((unsigned long)cpu << 21); }" || return 1
	printf 'mm/cpu_alloc_test.c\n' >"$W/linux/real-objs"
	git -C "$W/linux" add -f real-objs && git -C "$W/linux" commit -q --amend --no-edit && expect_ok mk export || return 1
	expect_ok mk check SPARSE=0 I386=0 && says "OK      CPU_PTR() probe" && says "no memory access" || return 1
	printf '%s\n' "extern unsigned long tab[];" \
		"unsigned long cpu_alloc_test_cpu_ptr(unsigned long p, unsigned int cpu) { return tab[cpu] + p; }" \
		>"$W/linux/mm/cpu_alloc_test.c"
	git -C "$W/linux" commit -q -a -m "mm: cpu_alloc: a table" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		expect_ok mk export || return 1
	expect_fail "a load in the probe" mk check SPARSE=0 I386=0 && says "memory accesses in cpu_alloc_test_cpu_ptr" || return 1
	# per_cpu_ptr()'s probe, where the head has it: a table load fails too
	printf '%s\n' "extern unsigned long tab[];" \
		"unsigned long cpu_alloc_test_cpu_ptr(unsigned long p, unsigned int cpu) { return 0xfffffe8000000000UL + p + ((unsigned long)cpu << 21); }" \
		"unsigned long cpu_alloc_test_per_cpu_ptr(unsigned long p, unsigned int cpu) { return tab[cpu] + p; }" \
		>"$W/linux/mm/cpu_alloc_test.c"
	git -C "$W/linux" commit -q -a -m "mm: cpu_alloc: per_cpu_ptr() from a table" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		expect_ok mk export || return 1
	expect_fail "a load in per_cpu_ptr()" mk check SPARSE=0 I386=0 && says "OK      CPU_PTR() probe" &&
		says "memory accesses in cpu_alloc_test_per_cpu_ptr" || return 1
	sed -i 's/return tab\[cpu\] + p;/return 0xfffffe8000000000UL + p + ((unsigned long)cpu << 21);/' "$W/linux/mm/cpu_alloc_test.c"
	git -C "$W/linux" commit -q -a -m "mm: cpu_alloc: per_cpu_ptr() computed" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		expect_ok mk export || return 1
	expect_ok mk check SPARSE=0 I386=0 && says "OK      per_cpu_ptr() probe" || return 1
	# a head without the test file has no probe to check
	git -C "$W/linux" rm -q mm/cpu_alloc_test.c && git -C "$W/linux" commit -q -m "mm: cpu_alloc: drop the test" \
		-m "Signed-off-by: Selftest <selftest@example.org>" && expect_ok mk export || return 1
	expect_ok mk check SPARSE=0 I386=0 && ! says "CPU_PTR() probe" >/dev/null
}

# The CPU_FREE() probe compiles a typed and a void call with the command
# line of mm/cpu_alloc_test.o: a header whose CPU_FREE() takes void
# pointers fails make check.
test_check_cpu_free_probe() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: add the probe" mm/cpu_alloc_test.c \
		"unsigned long cpu_alloc_test_cpu_ptr(unsigned long p, unsigned int cpu) { return 0xfffffe8000000000UL + p + ((unsigned long)cpu << 21); }" || return 1
	mkdir -p "$W/linux/include/linux"
	printf '%s\n' '#define __percpu' 'typedef unsigned long long u64;' 'void cpu_free(void *p, unsigned long size);' \
		'#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int:(-!!(e)); })))' \
		'#define CPU_FREE(p) cpu_free((p), sizeof((p)[0]) + BUILD_BUG_ON_ZERO(__builtin_types_compatible_p(typeof((p)[0]), void)))' \
		>"$W/linux/include/linux/cpu_alloc.h"
	printf 'mm/cpu_alloc_test.c\n' >"$W/linux/real-objs"
	git -C "$W/linux" add -f real-objs include/linux/cpu_alloc.h && git -C "$W/linux" commit -q --amend --no-edit &&
		expect_ok mk export || return 1
	expect_ok mk check SPARSE=0 I386=0 && says "OK      CPU_FREE() probe" || return 1
	sed -i 's/ + BUILD_BUG_ON_ZERO.*$/)/' "$W/linux/include/linux/cpu_alloc.h"
	git -C "$W/linux" commit -q -a -m "mm: cpu_alloc: untyped frees" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		expect_ok mk export || return 1
	expect_fail "a void CPU_FREE() builds" mk check SPARSE=0 I386=0 &&
		says "CPU_FREE() of a void __percpu pointer builds"
}

# make cold-cost: a commit that shifts the lines of a header every object
# includes gives them all a new preprocessed text (FULL), and so does a
# new Kconfig value that the header expands; one that only changes a
# macro nobody expands gives none; the first commit is the first build.
# More full compiles than COLD_FULL_MAX fail; bad settings are refused.
test_cold_cost() {
	local f
	expect_ok mk tree || return 1
	mkdir -p "$W/linux/include/linux"
	printf '%s\n' '#define SHARED_UNUSED 1' 'int shared(void);' >"$W/linux/include/linux/shared.h"
	for f in a b c d; do
		printf '#include "../include/linux/shared.h"\nint %s(void) { return shared(); }\n' "$f" \
			>"$W/linux/kernel/cold_$f.c"
		echo "kernel/cold_$f.c" >>"$W/linux/real-objs"
	done
	# the fake tree's own objects (which get a .cmd too) stay out
	(cd "$W/linux" && git ls-files 'kernel/*.c') >"$W/linux/not-built"
	git -C "$W/linux" add -f real-objs not-built include kernel &&
		git -C "$W/linux" commit -q -m "kernel: four objects" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		sed -i 's/SHARED_UNUSED 1/SHARED_UNUSED 2/' "$W/linux/include/linux/shared.h" &&
		git -C "$W/linux" commit -q -a -m "kernel: a macro nobody expands" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		sed -i '1i /* a new first line */' "$W/linux/include/linux/shared.h" &&
		git -C "$W/linux" commit -q -a -m "kernel: a line on top of shared.h" -m "Signed-off-by: Selftest <selftest@example.org>" ||
		return 1
	expect_ok mk export || return 1
	expect_ok mk build || return 1
	expect_ok mk cold-cost COLD_SAMPLE=4 || return 1
	says "(base, 4 objects sampled of 4)" || return 1
	grep -E '^[0-9a-f]{12}  kernel: four objects +4/4 +100%  FULL \(the first build\)$' "$T/out" >/dev/null ||
		{ says "four objects: 4/4 100% FULL (the first build)"; return 1; }
	grep -E '^[0-9a-f]{12}  kernel: a macro nobody expands +0/4 +0% *$' "$T/out" >/dev/null || { says "macro: 0/4 0%"; return 1; }
	grep -E '^[0-9a-f]{12}  kernel: a line on top of shared.h +4/4 +100%  FULL$' "$T/out" >/dev/null ||
		{ says "line: 4/4 100% FULL"; return 1; }
	says "a cold bisect-check compiles the tree about 2.0 times" || return 1
	expect_fail "two full compiles allowed" mk cold-cost COLD_SAMPLE=4 COLD_FULL_MAX=1 &&
		says "compiles the tree about 2.0 times, more than COLD_FULL_MAX=1" || return 1
	# the .cmd's objtool pass (after its ";") never ran on the build
	[ -z "$(find "$W/build" -name '*.objtool')" ] || { echo "cold-cost ran the .cmd past its compile"; return 1; }
	# a Kconfig symbol that shared.h expands, new in the last commit
	printf '%s\n' '#include <generated/autoconf.h>' '#ifdef CONFIG_COLD_SHIFT' \
		'#define COLD_SHIFT CONFIG_COLD_SHIFT' '#else' '#define COLD_SHIFT 0' '#endif' \
		'static inline int shift(void) { return COLD_SHIFT; }' >>"$W/linux/include/linux/shared.h" &&
		git -C "$W/linux" commit -q -a -m "kernel: shared.h reads the config" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		echo 'CONFIG_COLD_SHIFT=21' >>"$R/qemu/cpu_alloc.config" &&
		echo 'config COLD_SHIFT' >>"$W/linux/Kconfig" &&
		git -C "$W/linux" commit -q -a -m "kernel: a Kconfig symbol" -m "Signed-off-by: Selftest <selftest@example.org>" &&
		echo 'int cold_more(void) { return 1; }' >>"$W/linux/kernel/cold_b.c" &&
		git -C "$W/linux" commit -q -a -m "kernel: one sampled source" -m "Signed-off-by: Selftest <selftest@example.org>" ||
		return 1
	expect_ok mk export || return 1
	expect_ok mk build || return 1
	expect_ok mk cold-cost COLD_SAMPLE=4 COLD_FULL_MAX=5 || return 1
	grep -E '^[0-9a-f]{12}  kernel: a Kconfig symbol +4/4 +100%  FULL$' "$T/out" >/dev/null ||
		{ says "Kconfig: 4/4 100% FULL"; return 1; }
	grep -E '^[0-9a-f]{12}  kernel: one sampled source +1/4 +2[0-9]% *$' "$T/out" >/dev/null ||
		{ says "one source: 1/4 about 25%"; return 1; }
	expect_fail "four full compiles allowed" mk cold-cost COLD_SAMPLE=4 COLD_FULL_MAX=3 &&
		says "more than COLD_FULL_MAX=3" || return 1
	expect_fail "a bad sample size" mk cold-cost COLD_SAMPLE=x && says "must be numbers"
}

# Two makes on one scratch checkout: the second stops at once and says so.
test_checkout_lock() {
	expect_ok mk tree || return 1
	mkdir -p "$W"
	exec 8>"$W/checkout.lock"
	flock -n 8 || return 1
	expect_fail "checkout locked" mk build && says "another make is using $W/checkout" || { exec 8>&-; return 1; }
	exec 8>&-
	expect_ok mk build
}

# make test runs make build DEBUG=1 from a shell that has read the
# settings (tests/ci.sh sources lib.sh): the debug build still goes to
# build-debug, with the debug timeout.
test_nested_make_debug_dirs() {
	expect_ok mk tree || return 1
	expect_ok bash -c '. "$1/scripts/lib.sh"; make --no-print-directory -C "$1" WORK="$2" build DEBUG=1' - "$R" "$W" ||
		return 1
	[ -f "$W/build-debug/arch/x86/boot/bzImage" ] || { echo "nested DEBUG=1 build not in build-debug"; return 1; }
	[ ! -f "$W/build/arch/x86/boot/bzImage" ] || { echo "nested DEBUG=1 build went to build"; return 1; }
	[ "$(WORK=$W DEBUG=1 bash -c '. "$1/scripts/lib.sh"; echo "$O $CHECKOUT $BOOT_TIMEOUT $CONFIG_EXTRA"' - "$R")" = \
		"$W/build-debug $W/checkout-debug 900 $R/qemu/debug.config" ] || { echo "DEBUG=1 defaults wrong"; return 1; }
	# its results and logs do not overwrite the normal build's of the same commit
	local id
	id=$(git -C "$W/linux" rev-parse cpu-alloc)
	[ -f "$W/results/$id/warnings-debug" ] && [ -f "$W/logs/build-${id:0:12}-debug.log" ] &&
		[ ! -f "$W/results/$id/warnings" ] || { echo "the debug build's results are not its own"; ls "$W/results/$id"; return 1; }
	# an O= the user chose is kept
	O="$W/mine" expect_ok mk build DEBUG=1 && [ -f "$W/mine/arch/x86/boot/bzImage" ] ||
		{ echo "the user's O= was not kept"; return 1; }
}

# make -j runs the steps of make all one after the other.
test_all_not_parallel() {
	expect_ok mk -j4 all && says "base + 0 commits" && says BUILT && says PASS
}

test_bisect_finds_boot_breaker() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: one" a "1" &&
		commit_in_tree "mm: cpu_alloc: build broken here" build-error "oops" &&
		commit_in_tree "mm: cpu_alloc: build fixed" build-error-gone "x" &&
		git -C "$W/linux" rm -q build-error && git -C "$W/linux" commit -q --amend --no-edit &&
		commit_in_tree "mm: cpu_alloc: breaks the boot" boot "panic" &&
		commit_in_tree "mm: cpu_alloc: after" c "3" && expect_ok mk export || return 1
	local want
	want=$(git -C "$W/linux" log --format=%H --grep "breaks the boot" -1)
	expect_ok mk bisect GOOD=base BAD=cpu-alloc && says "first bad commit: $want" || return 1
	# the hacking work tree is left where it was
	[ "$(git -C "$W/linux" rev-parse --abbrev-ref HEAD)" = cpu-alloc ] || { echo "work tree moved"; return 1; }
	grep -q "skipped (125)" "$W/logs/bisect.log" || [ "$(grep -c 'build broken' "$W/logs/bisect-steps.txt")" = 0 ] ||
		{ echo "a build failure was not skipped"; return 1; }
}

test_bisect_bad_input() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: one" a "1" && expect_ok mk export || return 1
	expect_fail "no args" mk bisect && says "needs GOOD= and BAD=" || return 1
	expect_fail "unknown rev" mk bisect GOOD=base BAD=nosuchrev && says "unknown revision 'nosuchrev'" || return 1
	expect_fail "reversed" mk bisect GOOD=cpu-alloc BAD=base && says "is not an ancestor of BAD" || return 1
	commit_in_tree "mm: cpu_alloc: unexported" b "2" || return 1
	expect_fail "unexported" mk bisect GOOD=base BAD=cpu-alloc && says "not exported"
}

test_mail_numbered_with_cover() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: one" a "1" && commit_in_tree "mm: cpu_alloc: two" b "2" &&
		expect_ok mk export && expect_ok mk mail || return 1
	local c=$W/mail/0000-cover-letter.patch
	grep -q '^Subject: \[PATCH 0/2\] cpu_alloc: a per-cpu allocator' "$c" &&
		grep -q '^Subject: \[PATCH 2/2\] mm: cpu_alloc: two' "$W"/mail/0002-*.patch &&
		grep -q "^base-commit: $(git -C "$W/linux" rev-parse base)" "$c" &&
		grep -q 'iucv' "$c" && grep -q 'make bench has not been run' "$c" && ! grep -q 'BLURB HERE' "$c" ||
		{ cat "$c"; return 1; }
}

test_send_without_mail_config() {
	command -v b4 >/dev/null || { echo "b4 missing: make deps"; return 1; }
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: one" a "1" && commit_in_tree "mm: cpu_alloc: two" b "2" &&
		expect_ok mk export || return 1
	expect_ok mk send TO=linux-mm@example.org && says "no mail configuration" && says "nothing sent" || return 1
	ls "$W"/outgoing/* >/dev/null || return 1
	grep -l 'maintainer@example.org' "$W"/outgoing/* >/dev/null || { echo "get_maintainer.pl not used"; return 1; }
	grep -q '^Subject: \[PATCH 0/2\] cpu_alloc: a per-cpu' "$W"/outgoing/* || { grep -h Subject "$W"/outgoing/*; return 1; }
}

# make test prints the time of each step and its total, and warns at
# its budget or past it, naming the slowest steps.
test_ci_times_and_budget() {
	cp -r "$HERE/fake" "$R/tests/"
	expect_ok mk test QUICK=1 SELFTEST_ARGS=help && says "step times (s):" && says "total (" || return 1
	! says "over its budget" >/dev/null || return 1
	expect_ok mk test QUICK=1 SELFTEST_ARGS=help BUDGET=0 &&
		says "warning: make test took" && says "Slowest steps: selftest" && says "1 passed, 0 failed"
}

# make test builds the debug kernel behind the other steps, from their
# start, in a build and checkout of its own; a step that fails first
# leaves no build running.  OVERLAP=0 builds it in its boot's step.
test_ci_debug_build_behind() {
	local trace=$T/trace id
	cp -r "$HERE/fake" "$R/tests/"
	expect_ok mk tree || return 1
	# make test's export round trip wants commits/ committed
	commit_in_tree "mm: cpu_alloc: one" a "1" && expect_ok mk export &&
		git -C "$R" add -A commits && git -C "$R" commit -q -m series || return 1
	: >"$trace"
	# (steps that want the real tree, kaslr-check, regen and others, fail
	# on the fake one: only these are judged)
	FAKE_TRACE=$trace mk test SELFTEST_ARGS=help >"$T/out" 2>&1
	says "build-debug, behind the next steps" && says "build-debug, beside the steps above" &&
		says "ok - bisect-check" && says "ok - boot-debug" || return 1
	# the allmodconfig compile too, counted before make check, which
	# then found its pass
	says "check-wide, behind the next steps" && says "check-wide, beside the steps above" &&
		says "ok - check-wide (behind)" && grep -q "passed for this series" "$W/ci-logs/check.log" ||
		{ cat "$W/ci-logs/check.log"; return 1; }
	[ "$(grep -o -e '^ok - check-wide' -e '^--- check:' "$T/out" | head -n2 | tr '\n' ' ')" = "ok - check-wide --- check: " ] ||
		{ echo "check-wide was not counted before make check"; return 1; }
	# and the i386 compile the same way
	says "check-i386, behind the next steps" && says "ok - check-i386 (behind)" &&
		grep -q "i386 .*: passed for this series and this configuration" "$W/ci-logs/check.log" ||
		{ cat "$W/ci-logs/check.log"; return 1; }
	[ "$(grep -o -e '^ok - check-i386' -e '^--- check:' "$T/out" | head -n2 | tr '\n' ' ')" = "ok - check-i386 --- check: " ] ||
		{ echo "check-i386 was not counted before make check"; return 1; }
	# its boot ran beside the steps after kaslr-check, which ran niced,
	# and was counted after them; make check ran in the background too,
	# beside regen to send, and was counted after them
	says "boot-debug: in the background" && says "--- check: in the background" &&
		says "--- check: nice -n 19 make" || return 1
	[ "$(grep -o -e '^--- send' -e '^ok - boot-debug' -e '^ok - check [(]' "$T/out" | tr '\n' ' ')" = \
	  "--- send ok - boot-debug ok - check ( " ] ||
		{ echo "boot-debug and check were not counted after the steps beside them"; cat "$T/out"; return 1; }
	# it started, at SCHED_IDLE, before bisect-check's boot ended (the
	# fake chrt notes it at once, and runs it at the test's own policy)
	[ "$(grep -m1 -e '^chrt' -e boot-end "$trace")" = "chrt --idle" ] ||
		{ echo "the debug build did not start beside bisect-check, at SCHED_IDLE:"; cat "$trace"; return 1; }
	[ "$(grep -c build-debug "$trace")" = 1 ] || { echo "the debug kernel was built twice"; cat "$trace"; return 1; }
	id=$(git -C "$W/linux" rev-parse cpu-alloc)
	[ -f "$W/build-debug/arch/x86/boot/bzImage" ] && [ -e "$W/checkout-debug/.git" ] &&
		[ -f "$W/results/$id/warnings-debug" ] && [ -f "$W/results/$id/warnings" ] ||
		{ echo "the debug build is not in its own places"; ls "$W" "$W/results/$id"; return 1; }
	# OVERLAP=0: the debug kernel is built in its boot's step, after bisect-check's builds
	: >"$trace"
	FAKE_TRACE=$trace mk test SELFTEST_ARGS=help OVERLAP=0 >"$T/out" 2>&1
	says "ok - boot-debug" && ! says "behind the next steps" >/dev/null || return 1
	! grep -q '^chrt' "$trace" && [ "$(grep -m1 -e build-debug -e boot-end "$trace")" = boot-end ] &&
		[ "$(sed -n '/build-debug/q;/boot-end/p' "$trace" | wc -l)" -ge 2 ] ||
		{ echo "OVERLAP=0 built the debug kernel early:"; cat "$trace"; return 1; }
	# a boot failure stops bisect-check: the slow debug build is ended, not waited for
	commit_in_tree "mm: cpu_alloc: panics" boot "panic" && commit_in_tree "mm: cpu_alloc: slow debug" debug-slow 600 &&
		expect_ok mk export && git -C "$R" add -A commits && git -C "$R" commit -q -m series2 || return 1
	local t0=$SECONDS
	expect_fail "boot failure" mk test SELFTEST_ARGS=help && says "not ok - bisect-check" || return 1
	[ $((SECONDS - t0)) -lt 400 ] || { echo "waited for the debug build"; return 1; }
	! pgrep -f "$W/build-debug" >/dev/null || { echo "the debug build still runs"; pkill -f "$W/build-debug"; return 1; }
}

# FRESH=1: a new WORK with an empty ccache; never a directory it did
# not make.
test_ci_fresh() {
	cp -r "$HERE/fake" "$R/tests/"
	mkdir -p "$W" && echo keep >"$W/precious"
	expect_fail "fresh over a used WORK" mk test FRESH=1 QUICK=1 SELFTEST_ARGS=help &&
		says "FRESH=1 would empty $W" && [ -f "$W/precious" ] || return 1
	local f=$T/fresh
	expect_ok make --no-print-directory -C "$R" test FRESH=1 QUICK=1 SELFTEST_ARGS=help WORK="$f" &&
		says "empty CCACHE_DIR=$f/ccache" && [ -f "$f/.cpu-alloc-fresh" ] || return 1
	# a second fresh run may reuse what the first made
	expect_ok make --no-print-directory -C "$R" test FRESH=1 QUICK=1 SELFTEST_ARGS=help WORK="$f"
}

test_am_check() {
	expect_ok mk tree || return 1
	commit_in_tree "mm: cpu_alloc: one" a "1" && expect_ok mk export || return 1
	expect_ok mk am-check AM_VERSIONS=none && says "git am onto base-6.1.192-3: 1 patches" || return 1
	sed -i 's/^+1$/+1\n+oops/; s/^@@ -0,0 +1 @@/@@ -0,0 +1,2 @@/' "$R"/commits/0001-*.patch
	sed -i 's/^--- \/dev\/null/--- a\/README/; s/^new file mode.*//' "$R"/commits/0001-*.patch
	expect_fail "broken patch" mk am-check AM_VERSIONS=none && says "stops at"
}

# make bench's report: the stored results of tests/bench/ (a base and a
# head, -icount and two -smp runs, each with its workloads' boot; made
# up, with the real figure names) give the stored bench.md and plot
# data, as the report in bench.sh's heredoc gave them before it moved to
# scripts/bench-report.py, plus the workload table.
test_bench_report() {
	local d=$T/bench
	cp -r "$HERE/bench" "$d" && rm -f "$d/bench.md" "$d/alloc-free.dat" || return 1
	expect_ok python3 "$R/scripts/bench-report.py" "$d" 2 4 1 42 2 && says "| target | wanted |" || return 1
	diff -u "$HERE/bench/bench.md" "$d/bench.md" && diff -u "$HERE/bench/alloc-free.dat" "$d/alloc-free.dat" ||
		return 1
	command -v gnuplot >/dev/null || return 0
	expect_ok gnuplot -e "dir='$d'" "$R/scripts/bench-plot.gp" && [ -s "$d/alloc-free.png" ]
}

# The workload table of the report: a kernel whose Percpu: counts
# cpu_alloc's pages, a figure the base's guest left out (the target says
# so, nothing is "met" by default), and the head alone (BENCH_BASE=none:
# no base, nothing missing).
test_bench_report_workloads() {
	local d=$T/bench
	cp -r "$HERE/bench" "$d" && echo 1 >"$d/percpu-counts-ca-head" || return 1
	sed -i '/^workload\/memcg\/ns /d' "$d/results-base-icount-1.txt"
	expect_ok python3 "$R/scripts/bench-report.py" "$d" 2 4 1 42 2 &&
		says "| memcg x1000 | icount ns per op | missing | 1160000 | - |" &&
		says "| netns x1000 | per-cpu bytes after, 4 CPUs | 1015808 | 1032192 | 1.02 |" &&
		says "| workload/module/ns | NOT measured: 1 figure(s) missing, workload/memcg/ns (base) |" &&
		says "| no workload slower than the base, head / base (-smp 4) | <= 1.00 | 1.02 | smp:workload/netns/ns | met |" &&
		says "| per-cpu memory after each workload at most the base's | <= 1.00 | 1.02 | smp:workload/netns/percpu | NOT met |" ||
		return 1
	rm "$d"/results-base-* "$d/commit-base"
	expect_ok python3 "$R/scripts/bench-report.py" "$d" 2 4 1 42 2 &&
		says "| netns x1000 | icount ns per op | - | 15330000 | - |" &&
		says "| no workload slower than the base, head / base | <= 1.00 | - | - | - |" || return 1
	! grep -q missing "$T/out" || { echo "missing figures without a base"; cat "$T/out"; return 1; }
}

# make bench drives the workloads' boot (bench_workloads=1) after the
# benchmarks' boot and builds pcpu_static.ko into the initramfs; an
# error line of a workload, or a guest that stops before "end", fails
# the run and names the error.
test_bench_workloads() {
	expect_ok mk tree && commit_in_tree "mm: cpu_alloc: bench" boot "bench" && expect_ok mk build || return 1
	expect_ok mk bench QUICK=1 BENCH_BASE=none && says "RAN     head smp #1 workloads" &&
		says "| netns x20 | icount ns per op | - | 100000 | - |" || return 1
	[ -f "$W/bench/mod-head/pcpu_static.ko" ] && grep -q "bench_workloads=1" "$W/logs/bench-head-icount-1-workloads.log" ||
		{ echo "no pcpu_static.ko, or no workloads boot"; return 1; }
	commit_in_tree "mm: cpu_alloc: module fails" boot "$(printf 'bench\nerror module: finit_module(/pcpu_static.ko) #1 failed: Invalid argument')" &&
		expect_ok mk build || return 1
	expect_fail "failing workload" mk bench QUICK=1 BENCH_BASE=none &&
		says "bench boot head icount #1 (workloads) failed (rc 0): module: finit_module(/pcpu_static.ko) #1 failed" || return 1
	commit_in_tree "mm: cpu_alloc: guest stops" boot "$(printf 'bench\nnoend')" && expect_ok mk build || return 1
	expect_fail "no end" mk bench QUICK=1 BENCH_BASE=none && says "bench boot head icount #1 (workloads) failed (rc 0): the guest stopped before \"end\""
}

# --- the runner ------------------------------------------------------

# make kaslr-check compares the KUnit kaslr lines of three boots: two
# plain boots must differ in the base and both CPUs' canary addresses,
# nokaslr must sit at the start of the area.  A kernel without the
# option is refused before any boot.
test_kaslr_check() {
	local a=$T/boot-x-kaslr-a.log b=$T/boot-x-kaslr-b.log n=$T/boot-x-nokaslr.log
	kaslr_log() { # LOG BASE LINE
		printf '%s\n' "[    0.000000] setup_percpu: cpu_alloc: $3" \
			"    # cpu_alloc_test_kaslr: cpu area base 0x$2" \
			"    # cpu_alloc_test_kaslr: cpu 0 stack canary at 0x${2%???????}0000028" \
			"    # cpu_alloc_test_kaslr: cpu 1 stack canary at 0x${2%???????}4000028" >"$1"
	}
	local r='cpu area base randomized in 2 MiB steps over 0xfffffe8000000000-0xfffffeff00000000: 261121 places, 17 bits'
	kaslr_log "$a" fffffe9a43e00000 "$r"
	kaslr_log "$b" fffffed107400000 "$r"
	kaslr_log "$n" fffffe8000000000 'cpu area at 0xfffffe8000000000, not randomized (nokaslr)'
	expect_ok env KASLR_LOGS="$a $b $n" make --no-print-directory -C "$R" kaslr-check &&
		says "kaslr-check: PASS" && says "0xfffffe9a40000028" || return 1
	kaslr_log "$b" fffffe9a43e00000 "$r"
	expect_fail "same base" env KASLR_LOGS="$a $b $n" make --no-print-directory -C "$R" kaslr-check &&
		says '"cpu area base" is 0xfffffe9a43e00000 in both boots' && says "run it again" || return 1
	kaslr_log "$b" fffffed107400000 "$r"
	kaslr_log "$n" fffffec000000000 'cpu area at 0xfffffe8000000000, not randomized (nokaslr)'
	expect_fail "nokaslr moved" env KASLR_LOGS="$a $b $n" make --no-print-directory -C "$R" kaslr-check &&
		says "with nokaslr the base is 0xfffffec000000000" || return 1
	echo "no kaslr lines" >"$n"
	expect_fail "no KUnit lines" env KASLR_LOGS="$a $b $n" make --no-print-directory -C "$R" kaslr-check &&
		says 'no "cpu area base" line' || return 1
	expect_ok mk tree && expect_ok mk build || return 1
	expect_fail "no option" mk kaslr-check && says "has no CONFIG_RANDOMIZE_CPU_AREA"
}

# The suites of their own (tests/<suite>.sh, one "ok - "/"not ok - "
# line per case, exit status 1 on a failure): the Coccinelle engine on
# C fixtures, am-check's parsing.  They run with the whole selftest, or
# when named like a test ("tests/run.sh cocci").
SUITES="cocci am-check"
names=() suites=()
for n in "$@"; do
	case " $SUITES " in *" $n "*) suites+=("$n") ;; *) names+=("$n") ;; esac
done
if [ $# = 0 ]; then
	mapfile -t names < <(declare -F | awk '{print $3}' | grep '^test_' | sed 's/^test_//')
	read -r -a suites <<<"$SUITES"
fi
start=$SECONDS
make_template
run_cases setup "${names[@]}"
for s in "${suites[@]}"; do
	[ -x "$HERE/$s.sh" ] || continue
	out=$("$HERE/$s.sh" 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed -n -E "s/^(not )?ok - /&$s: /p"
	p=$(printf '%s\n' "$out" | grep -c '^ok - ')
	f=$(printf '%s\n' "$out" | grep -c '^not ok - ')
	[ $rc != 0 ] && [ "$f" = 0 ] && f=1
	[ "$f" = 0 ] || { printf '%s\n' "$out" | tail -n 30 | sed 's/^/    # /'; failures="$failures $s"; }
	passed=$((passed + p)) failed=$((failed + f))
done
slowest_cases "${SELFTEST_SLOWEST:-5}"
echo "selftest: $(( SECONDS - start ))s${failures:+, failed:$failures}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
