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
# commits (FRESH=1 ignores the cache).  A commit that changes only files
# its parent's build did not read is SAME: not built or booted again
# (see unseen below; UNSEEN=0 builds and boots it).  Stops at the first
# failure, with the path of its log.
. "$(dirname "$0")/lib.sh"

[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
base=$(lock_get BASE_COMMIT)
head=$(resolve "${REV:-$BRANCH}")
kgit merge-base --is-ancestor "$base" "$head" || die "$head does not descend from the base $base"

# What decides a result besides the commit itself: the kernel config
# and the guest's checks.  The driver's own scripts are not in it (as
# ktest does not hash itself): after changing them, FRESH=1 re-runs all.
# Each commit's boot skips test_kmem_memcg_deletion besides make boot's
# test_kmem_basic (KMEM_SKIP, see scripts/lib.sh; KMEM_SKIP=none runs
# all), as it runs a twentieth of the stress test: the head's boots run it.
KMEM_SKIP=${KMEM_SKIP:-$KMEM_SKIP_REPEATED}
salt=$({ cat "$TOP/qemu/"*.config "$TOP/qemu/"*.c "$TOP/qemu/"*.h ${CONFIG_EXTRA:-}; echo "$KMEM_SKIP"; } |
	sha256sum | cut -c1-16)
salt="$salt-smp${SMP:-4}"
ignore=$TOP/checkpatch/build-warnings.ignore
# the names of build.sh's results under these config fragments
tag=$(build_tag)
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

# A commit's boot runs in the background while the next commit is
# built (OVERLAP=1, the default): a boot keeps about 1.4 of 2 host
# cores busy and an incremental build about 1.3 (make's walk of every
# directory, the link), so each fills the other's idle time.  The
# build, the base's objects and sparse run at nice 19, so that the
# guest, whose tests measure time, keeps the CPU whenever it wants it.
# The rows still come in order, and a commit's failure is reported
# only after the boot before it.  OVERLAP=0 boots each commit before
# building the next.
# (lib.sh checks OVERLAP.)
stage=$WORK/bisect-boot
pending= boot_pid=
# stop_boot: end a boot still running (on exit or interrupt): its
# script, and the command it waits for (timeout, which ends QEMU), so
# that the script's own trap stops the NFS server at once.
stop_boot() {
	local kids
	[ -n "$boot_pid" ] || return 0
	kids=$(cat /proc/"$boot_pid"/task/*/children 2>/dev/null || true)
	# shellcheck disable=SC2086
	kill -TERM "$boot_pid" $kids 2>/dev/null || true
	wait "$boot_pid" 2>/dev/null || true
	boot_pid=
}
trap stop_boot EXIT
trap "exit 130" INT
trap "exit 143" TERM HUP
# start_boot ID: boot the build of ID, which $O holds, in
# the background from a copy of its image, so that $O can take the
# next build.
start_boot() {
	rm -rf "$stage" && mkdir -p "$stage/arch/x86/boot"
	cp "$O/arch/x86/boot/bzImage" "$stage/arch/x86/boot/bzImage"
	cp "$O/.config" "$O/.cpu-alloc-built" "$stage/"
	pending=$1
	# In this session, not setsid's: with the scheduler's autogroups
	# (Debian's default) another session gets half the CPU whatever
	# the nice values, and the boots took twice as long.  A twentieth
	# of the stress test per commit: 200,000 operations took 22 of a
	# boot's 37 guest seconds on a slow machine, with four vCPUs on
	# two host cores beside the next build; 50,000 still take every
	# path and a few consistency checks.  The head's boots run all.
	O=$stage STRESS_OPS=${STRESS_OPS:-50000} KMEM_SKIP=$KMEM_SKIP "$TOP/scripts/boot.sh" \
		>"$LOGS/bisect-boot.log" 2>&1 </dev/null &
	boot_pid=$!
}
# finish_boot: wait for the boot in the background, print its row and
# cache its result; 1 if it failed.
finish_boot() {
	local id=$pending rc=0 bs secs subj
	[ -n "$id" ] || return 0
	wait "$boot_pid" || rc=$?
	boot_pid= pending=
	bs=$(cat "$RESULTS/$id/build-seconds$tag")
	subj=$(kgit log -1 --format=%s "$id")
	if [ $rc != 0 ]; then
		row "${id:0:12}" "$subj" "$bs" "-" "BOOT-FAIL" | tee -a "$table"
		cat "$LOGS/bisect-boot.log" >&2
		return 1
	fi
	secs=$(sed -n 's/.* seconds=//p' "$LOGS"/boot-"${id:0:12}"-*.log.verdict | tail -n1)
	echo "$bs $secs PASS" >"$RESULTS/$id/bisect-$salt"
	row "${id:0:12}" "$subj" "$bs" "$secs" PASS | tee -a "$table"
}
# prepare ID: build ID in $O, judge its warnings against the base's,
# run sparse on what it touches.  0 ready to boot, 2 the build failed,
# 3 new warnings (in $LOGS/bisect-new-warnings).  Run niced, in a
# subshell.
prepare() {
	local id=$1 new
	renice -n 19 -p "$BASHPID" >/dev/null 2>&1 || true
	REV=$id "$TOP/scripts/build.sh" >"$LOGS/bisect-step.log" 2>&1 || return 2
	# the .c files a warning names get a baseline too
	base_objs $(cut -d: -f1 "$RESULTS/$id/warnings$tag" | sort -u)
	new=$(comm -23 "$RESULTS/$id/warnings$tag" <(base_lines warnings) |
		{ if [ -s "$ignore" ]; then grep -v -F -f <(grep -v '^#' "$ignore") || true; else cat; fi; })
	if [ -n "$new" ]; then
		echo "$new" >"$LOGS/bisect-new-warnings"
		return 3
	fi
	SPARSE_BASE=later sparse_commit "$id"
}

# A commit that changes no file its parent's build read is neither
# built nor booted (UNSEEN=1, the default): every file it changes is a
# .c or .h file outside scripts/, tools/ and usr/, and no dependency
# list of the build in $O (kbuild's .cmd files: each object's source
# and every header it read) names a file of that name, wherever it
# lives.  Its build would compile nothing and link its parent's objects
# again: the kernel booted on the row above, but for the build date.
# Such a commit changes a driver or another architecture's file that the
# boot configuration leaves out (make check compiles those under
# allmodconfig); its row says SAME.  A name matched in another directory
# (a header reached through "../" is named by another path) only builds
# more than needed.  $O must hold the build this run made of the parent,
# or of the commit whose kernel the parent's SAME row took (kernel_of).
kernel_of=
unseen() {
	local id=$1 f names=() n
	[ "$UNSEEN" = 1 ] && [ -n "$kernel_of" ] || return 1
	[ "$(cat "$O/.cpu-alloc-built" 2>/dev/null)" = "$kernel_of" ] || return 1
	while IFS= read -r f; do
		case "$f" in scripts/* | tools/* | usr/*) return 1 ;; esac
		case "$f" in *.c | *.h) names+=("/${f##*/}") ;; *) return 1 ;; esac
	done < <(kgit diff-tree --no-commit-id --name-only -r "$id")
	[ ${#names[@]} != 0 ] || return 1
	n=$(find "$O" -name '*.cmd' -exec cat {} + 2>/dev/null | grep -c -F -f <(printf '%s\n' "${names[@]}") || true)
	[ "${n:-1}" = 0 ]
}
# same ID: record commit ID as SAME: its result, and sparse's (no file
# of it is built, so none is checked; make check reads this).
same() {
	local id=$1 d
	if [ "${SPARSE:-1}" = 1 ]; then
		d=$(sparse_dir "$id")
		mkdir -p "$d"
		: >"$d/files"
		kgit diff-tree --no-commit-id --name-only -r --diff-filter=AM "$id" -- '*.c' >"$d/skipped"
		: >"$d/lines"
	fi
	echo "- - SAME" >"$RESULTS/$id/bisect-$salt"
}

fail=0 nsame=0
for id in $(kgit rev-list --reverse "$base..$head"); do
	short=${id:0:12}
	subj=$(kgit log -1 --format=%s "$id")
	cache=$RESULTS/$id/bisect-$salt
	# (a SAME row of an earlier run does not stand for UNSEEN=0)
	if [ -f "$cache" ] && [ "${FRESH:-0}" != 1 ] && { [ "$UNSEEN" = 1 ] || ! grep -q ' SAME$' "$cache"; }; then
		finish_boot || { fail=1; break; }
		# shellcheck disable=SC2086
		row "$short" "$subj" $(cat "$cache") | tee -a "$table"
		grep -q ' SAME$' "$cache" && nsame=$((nsame + 1))
		kernel_of=
		[ "$(cat "$O/.cpu-alloc-built" 2>/dev/null)" != "$id" ] || kernel_of=$id
		continue
	fi
	if unseen "$id"; then
		finish_boot || { fail=1; break; }
		mkdir -p "$RESULTS/$id"
		same "$id"
		row "$short" "$subj" - - SAME | tee -a "$table"
		nsame=$((nsame + 1))
		continue
	fi
	kernel_of=
	# errexit holds inside prepare, as it did when these steps ran here
	set +e
	(set -e; prepare "$id")
	prc=$?
	set -e
	# the commit before this one first: its boot ran meanwhile
	finish_boot || { fail=1; break; }
	case $prc in
	0) ;;
	2)
		row "$short" "$subj" "-" "-" "BUILD-FAIL" | tee -a "$table"
		tail -n 20 "$LOGS/bisect-step.log" >&2
		fail=1
		break
		;;
	3)
		row "$short" "$subj" "$(cat "$RESULTS/$id/build-seconds$tag")" "-" "NEW-WARNINGS" | tee -a "$table"
		cat "$LOGS/bisect-new-warnings" >&2
		echo "log: $LOGS/build-$short$tag.log" >&2
		fail=1
		break
		;;
	*)
		tail -n 20 "$LOGS/bisect-step.log" >&2
		die "preparing $short failed (status $prc)" "see the lines above"
		;;
	esac
	start_boot "$id"
	kernel_of=$id
	[ "$OVERLAP" = 1 ] || finish_boot || { fail=1; break; }
done
[ $fail = 1 ] || finish_boot || fail=1
# The base's objects for sparse's baseline, for every commit at once
# (one kbuild run at the base instead of one per commit that touches a
# file the base has not compiled yet); make check judges them.
if [ $fail = 0 ] && [ "${SPARSE:-1}" = 1 ]; then
	for id in $(kgit rev-list --reverse "$base..$head"); do
		cat "$(sparse_dir "$id")/files" 2>/dev/null || true
	done | sort -u >"$LOGS/bisect-sparse-files"
	mapfile -t sfiles <"$LOGS/bisect-sparse-files"
	[ ${#sfiles[@]} = 0 ] || base_objs "${sfiles[@]}"
fi
[ $nsame = 0 ] || echo "SAME: $nsame commits change no file that the build of their parent read; each one's kernel is the one booted on the row above it (UNSEEN=0 builds and boots them)" | tee -a "$table"
echo "table: $table"
[ $fail = 0 ] || die "bisect-check stopped at the first failure" "see the log named above"
