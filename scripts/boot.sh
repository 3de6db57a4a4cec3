#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make boot: boot the kernel built in $O under QEMU and check its verdict.
#
# The initramfs holds one static program, qemu/init.c (scripts/qemu.sh
# builds it and runs QEMU).  The guest prints "cpu_alloc-verdict:
# PASS|FAIL key=value..." and ends the VM; its kunit= and splats= are
# counts, not checks.  The host then checks, independently of the guest:
#   - the verdict line is there and says PASS;
#   - the console log has no "WARNING:", "BUG:" or "Oops";
#   - with SMP > 1, the kernel brought up EXPECT_CPUS CPUs;
#   - KUnit's KTAP output, if any, parses with tools/testing/kunit/kunit.py
#     and reports no failure;
#   - the fields of the debugfs tests (CONFIG_CPU_ALLOC_STRESS_TEST), when
#     the verdict has them: stress=<ops>/<corrupt>/<leaked units> with no
#     corruption or leak, stress_delta=0/0 (objects, cpu_bytes) unless
#     stress_foreign counts other users' calls during the run,
#     hotplug=<cycles>/<exact>/<bad> exact and not bad, cpus_after=N/N;
#     with the test built in, stress must have run, and with
#     CONFIG_DEBUG_KMEMLEAK=y too, kmemleak=found (the leak planted on
#     purpose was reported), and kmemleak_others=0 (KMEMLEAK_OTHERS=warn:
#     other reports are only shown);
#   - with CONFIG_FAIL_CPU_ALLOC, the inject_*=<calls>/<failed>/<leaks>/
#     <bad> fields: no leak and nothing bad, and at least one cpu_alloc()
#     call where the user is converted at this commit; numa=ok or absent;
#   - ptdump=ok:0/<n> or absent: the page-table dump marks the cpu area
#     and the base of its slots, with nothing mapped below the base;
#   - nfs=ok:<bytes>-><bytes> and nfs_events=<a>-><b> moved, where the
#     kernel has the NFS client: with NFS=1 (scripts/nfs.sh) nfs-ganesha
#     serves an export to the guest for the length of the boot, and the
#     guest mounts it, writes and reads; NFS=0 accepts nfs=noserver;
#   - dmatest=<tests>/<failures>:memcpy_count=<a>-><b>,bytes=<c>-><d>
#     with tests, no failures and both counters moved, where the kernel
#     has dmatest and the software memcpy channels (SW_MEMCPY_DMA);
#   - generic=mount=20/20,aio=20,irqs=<a>-><b>,counts_back=yes where the
#     kernel has AIO and TMPFS: 20 tmpfs mounts (each remounted read-only)
#     and 20 aio contexts, users of the generic conversions, were made and
#     freed, cpu_alloc's object and byte counts came back, and the sum of
#     /proc/interrupts was above 0 and did not go down;
#   - memory cgroups: the kernel's tools/testing/selftests/cgroup/test_kmem
#     (built statically from $SRC into the initramfs, with the main() of
#     qemu/test_kmem_main.c) ran with CONFIG_MEMCG, skipped the tests
#     KMEM_SKIP names (test_kmem_skipped=; by default test_kmem_basic,
#     which this guest always fails; never test_percpu_basic)
#     and failed nothing outside KMEM_XFAIL: test_kmem=<pass>/<fail>/<skip>,
#     test_kmem_failed=<names>|none, and test_percpu_basic=pass; a test
#     outside KMEM_XFAIL that failed runs again, and test_kmem_flaky=
#     names those that then passed (noted); a test_kmem_memcg_deletion
#     failure within the per-CPU charge caches (test_kmem_deletion=
#     <excess>/<cpus>, see kmem_within_caches below) is noted, not failed;
#     memcg_percpu=<charged>/<expected>/<left>
#     (an accounted cpu_alloc object, where the debugfs test has it)
#     charged exactly and uncharged; with event tracing,
#     trace=<allocs>/<freed>/<fails> (the percpu tracepoints of a memory
#     cgroup's mkdir and rmdir, and of an injected failure, -1 without
#     fail_cpu_alloc; none may be 0); the unprivileged exhaustion test
#     unpriv=<held>/<why>/<root>: uid 1000 held namespaces, stopped on its
#     cgroup's limit (unpriv_events max or oom above 0), not on a full
#     region (unpriv_region_full=0, unpriv_region free units above a
#     tenth), root could still create a netns, a loop device and a kmem
#     cache ("ok"), and unpriv_freed=<before>/<after> cpu_bytes is not higher after;
#     with cpu_alloc_root_netns=N in APPEND, root_netns_freed as well.
# A kernel with CONFIG_NUMA boots as the NUMA guest: two nodes, even
# CPUs on one, odd on the other, 5 GiB (MEM is not used), of which the top
# 256 MiB is hidden with mem= for the guest to hot-add.
# A guest that does not end within BOOT_TIMEOUT seconds is killed and
# fails.  The whole console log is kept in $LOGS.  Exit status: 0 PASS.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/qemu.sh"
. "$(dirname "$0")/nfs.sh"

image=$O/arch/x86/boot/bzImage
[ -f "$image" ] || die "no kernel image $image" "run: make build"
id=$(cat "$O/.cpu-alloc-built" 2>/dev/null || echo unknown)
short=${id:0:12}
mkdir -p "$LOGS"
# The kernel's memcg kmem test, static, from the work tree's selftests,
# with the main() of qemu/test_kmem_main.c (it can skip tests and times
# each one).
KMEM_SKIP=${KMEM_SKIP:-test_kmem_basic}
[ "$KMEM_SKIP" = none ] && KMEM_SKIP=
case ",$KMEM_SKIP," in
*,test_percpu_basic,*)
	die "KMEM_SKIP=$KMEM_SKIP names test_percpu_basic, the per-cpu charge test, which every boot runs" \
		"run it again without test_percpu_basic in KMEM_SKIP" ;;
esac
kmem_lines=()
cg_src=$SRC/tools/testing/selftests/cgroup
kmem_main=$TOP/qemu/test_kmem_main.c
kmem_bin=$WORK/initramfs/test_kmem
if [ -f "$cg_src/test_kmem.c" ] && [ -f "$cg_src/cgroup_util.c" ]; then
	mkdir -p "$WORK/initramfs"
	if [ ! -f "$kmem_bin" ] || [ "$cg_src/test_kmem.c" -nt "$kmem_bin" ] ||
	   [ "$cg_src/cgroup_util.c" -nt "$kmem_bin" ] || [ "$kmem_main" -nt "$kmem_bin" ] ||
	   [ "$TOP/qemu/lib.h" -nt "$kmem_bin" ]; then
		vrun ${HOSTCC:-gcc} -static -O2 -Wall -pthread -I"$cg_src" -o "$kmem_bin" \
			"$kmem_main" "$cg_src/cgroup_util.c" >"$LOGS/test_kmem-build.log" 2>&1 ||
			die "cannot build test_kmem statically from $cg_src" "log: $LOGS/test_kmem-build.log"
	fi
	kmem_lines=("file /test_kmem $kmem_bin 0755 0 0")
fi
initramfs "$WORK/initramfs/initramfs.cpio" "$TOP/qemu/init.c" "dir /tmp 1777 0 0" ${kmem_lines[@]+"${kmem_lines[@]}"}

disk=$WORK/disk.img
[ -f "$disk" ] || { head -c $((16 << 20)) /dev/zero | tr '\0' 'c' >"$disk"; }

accel="-accel tcg"
[ "$KVM" = 1 ] && accel="-accel kvm -cpu host"
tag=${BOOT_TAG:-smp$SMP${MAXCPUS:+-max$MAXCPUS}}
log=$LOGS/boot-$short-$tag.log
# Converted users at this commit: kernel files outside the allocator
# that call CPU_ALLOC() or cpu_alloc() (tools/ has glibc's CPU_ALLOC of
# cpu sets).  With any, the guest requires cpu_bytes > 0.  The base has
# none, so only the files changed since the base are searched: a grep of
# the whole tree at a commit took 10-20 s of every boot (six minutes of
# make bisect-check).
users=0
if [ "$id" != unknown ] && [ -d "$SRC/.git" ]; then
	paths=('*.c' '*.h' ':!tools' ':!Documentation' ':!mm/cpu_alloc*' ':!include/linux/cpu_alloc.h')
	base=$(lock_get BASE_COMMIT 2>/dev/null || true)
	if [ -n "$base" ] && kgit merge-base --is-ancestor "$base" "$id" 2>/dev/null; then
		mapfile -t changed < <(kgit diff --name-only --diff-filter=d "$base" "$id" -- "${paths[@]}")
	else
		changed=("${paths[@]}")
	fi
	[ ${#changed[@]} = 0 ] ||
		users=$(kgit grep -l -E '\b(CPU_ALLOC|cpu_alloc)\(' "$id" -- "${changed[@]}" 2>/dev/null | wc -l || true)
fi
# field KEY: the value of KEY= in the guest's verdict, empty if absent
# (the last one, if the verdict names KEY twice).  The verdict is split
# into fields once (the checks below read about 80 of them).
declare -A fields=()
fields_of=
field() {
	local kv kvs
	if [ "$fields_of" != "$verdict" ]; then
		fields=() fields_of=$verdict
		read -r -a kvs <<<"$verdict"
		for kv in ${kvs[@]+"${kvs[@]}"}; do
			case "$kv" in *=*) fields[${kv%%=*}]=${kv#*=} ;; esac
		done
	fi
	printf '%s\n' "${fields[$1]:-}"
}
# kmem_within_caches EXCESS/CPUS: is the excess that a failed
# test_kmem_memcg_deletion saw (memory.current against the sum of
# memory.stat) within what the per-CPU charge caches hold?  The test
# allows MEMCG_CHARGE_BATCH pages per CPU, the pages each CPU's
# memcg_stock keeps charged.  Each CPU's obj_stock also keeps up to two
# pages of charged bytes (obj_cgroup_charge() lets them pass a page) and
# up to a page each of reclaimable and unreclaimable slab bytes not yet
# in memory.stat: 4 more pages per CPU, which the test does not allow
# for (they left it 0.1-4% over its bound in 3 of the 36 boots of stop
# 26's CI).  A charge that cpu_alloc lost would not show here but in
# memcg_percpu (exact) and test_percpu_basic, which must pass.
# Sets kmem_bound.
kmem_within_caches() {
	local excess=${1%/*} cpus=${1#*/} batch
	batch=$(sed -n 's/^#define MEMCG_CHARGE_BATCH \([0-9]*\)U*$/\1/p' "$SRC/include/linux/memcontrol.h" 2>/dev/null)
	case "$excess/$cpus/$batch" in
	*[!0-9/]* | /* | */ | *//*) return 1 ;;
	esac
	kmem_bound=$((cpus * (batch + 4) * 4096))
	[ "$excess" -lt "$kmem_bound" ]
}
config_has() { grep -q "^$1=y" "$O/.config" 2>/dev/null; }
# The operations of the guest's stress test: cpu_alloc_stress= on the
# kernel command line, init's default of 10^6 if STRESS_OPS is empty,
# none with STRESS_OPS=0; STRESS_SECS= stops it after that many seconds.
append="console=ttyS0 panic=-1 oops=panic loglevel=7 expect_cpus=$EXPECT_CPUS cpu_alloc_users=$users ${APPEND:-}"
[ "$MAXCPUS" != "$SMP" ] && append="$append possible_cpus=$MAXCPUS"
[ -n "$STRESS_OPS" ] && append="$append cpu_alloc_stress=$STRESS_OPS"
[ -n "$STRESS_SECS" ] && append="$append cpu_alloc_stress_secs=$STRESS_SECS"
# test_kmem failures that need no second run (the guest's own)
[ -n "$KMEM_XFAIL" ] && append="$append kmem_xfail=$KMEM_XFAIL"
# test_kmem tests not to run
[ -n "$KMEM_SKIP" ] && append="$append kmem_skip=$KMEM_SKIP"

numa= smp_shape=
if config_has CONFIG_NUMA; then
	# Node data and the second node above 4 GiB; RAM from 0x170000000
	# (5888 MiB: QEMU puts 3 GiB below 4 GiB, the rest from 4 GiB) is
	# cut off with mem= and hot-added by the guest.
	# Even CPUs on node 0, odd ones on node 1, so that the online CPUs
	# are split too.
	MEM=5G
	cpus0= cpus1=
	for ((c = 0; c < MAXCPUS; c++)); do
		if ((c % 2)); then cpus1="$cpus1,cpus=$c"; else cpus0="$cpus0,cpus=$c"; fi
	done
	# one socket (and so one LLC) per CPU: CPUs that share a cache on
	# different nodes make the kernel warn (topology_sane())
	smp_shape=",sockets=$MAXCPUS,cores=1,threads=1"
	numa="-object memory-backend-ram,id=node0,size=2560M -numa node,nodeid=0,memdev=node0$cpus0"
	numa="$numa -object memory-backend-ram,id=node1,size=2560M -numa node,nodeid=1,memdev=node1$cpus1"
	append="$append mem=5888M cpu_alloc_hotadd=0x170000000"
	# as Debian's kernels (INIT_ON_ALLOC_DEFAULT_ON): the KUnit case
	# init_on_alloc runs here, and skips itself in the other boots
	append="$append init_on_alloc=1"
	tag=$tag-numa
	log=$LOGS/boot-$short-$tag.log
fi

# The NFS server, for a kernel with the NFS client: started here, ended
# when this script ends, whatever ends it.
net=
if [ "$NFS" = 1 ] && config_has CONFIG_NFS_FS; then
	trap nfs_stop EXIT
	trap "exit 130" INT
	trap "exit 143" TERM HUP
	nfs_start
	append="$append nfs_server=10.0.2.2:$NFS_PORT"
	net="-netdev user,id=net0 -device virtio-net-pci,netdev=net0"
fi

info BOOT "$short -smp $SMP,maxcpus=$MAXCPUS${numa:+, 2 NUMA nodes, $MEM} (timeout ${BOOT_TIMEOUT}s)"
rc=0
# shellcheck disable=SC2086
qemu_run "$log" "$BOOT_TIMEOUT" $accel -smp "$SMP,maxcpus=$MAXCPUS$smp_shape" $numa -kernel "$image" \
	-initrd "$WORK/initramfs/initramfs.cpio" -append "$append" \
	-drive "file=$disk,if=virtio,format=raw,readonly=on" $net || rc=$?
secs=$qemu_secs
nfs_stop

problems=
case $rc in 124 | 137) problems="$problems timeout(${BOOT_TIMEOUT}s)" ;; esac
verdict=$(grep -a -o 'cpu_alloc-verdict: .*' "$log" | tail -n1 | tr -d '\r' || true)
case "$verdict" in
"cpu_alloc-verdict: PASS"*) ;;
"") problems="$problems no-verdict-line" ;;
*) problems="$problems guest-verdict-FAIL" ;;
esac
# init's own lines about kmemleak's report are not splats of the kernel
splats=$(grep -a -E 'WARNING:|BUG:|Oops' "$log" | grep -a -c -v '^cpu_alloc-init: kmemleak' || true)
[ "$splats" = 0 ] || problems="$problems splats=$splats"
stress=$(field stress)
case "$stress" in
[0-9]*/*/*)
	IFS=/ read -r s_ops s_corrupt s_leaked <<<"$stress"
	[ "$s_corrupt" = 0 ] || problems="$problems stress-corrupt=$s_corrupt"
	if [ "$(field stress_timed_out)" = 1 ]; then
		info NOTE "stress: stopped by STRESS_SECS=$STRESS_SECS after $s_ops operations"
	fi
	# Other users' calls meanwhile (alloc_percpu() once cpu_alloc serves
	# it) make the deltas theirs: judged only when there were none.
	s_foreign=$(field stress_foreign)
	if [ "${s_foreign:--1}" -gt 0 ]; then
		info NOTE "stress: $s_foreign calls of other users during the run; leaked units ($s_leaked) and deltas ($(field stress_delta)) not judged"
	else
		[ "$s_leaked" = 0 ] || problems="$problems stress-leaked-units=$s_leaked"
		d=$(field stress_delta)
		[ -z "$d" ] || [ "$d" = 0/0 ] || problems="$problems stress-delta(objects/cpu_bytes)=$d"
	fi
	;;
"" | absent)
	config_has CONFIG_CPU_ALLOC_STRESS_TEST && problems="$problems stress-test-built-but-not-run" ;;
skipped) ;;
*) problems="$problems stress=$stress" ;;
esac
hotplug=$(field hotplug)
case "$hotplug" in
[0-9]*/*/*)
	IFS=/ read -r h_cycles h_exact h_bad <<<"$hotplug"
	[ "$h_exact" = 1 ] || problems="$problems hotplug-sum-inexact"
	[ "$h_bad" = 0 ] || problems="$problems hotplug-bad-checks=$h_bad"
	;;
esac
c=$(field cpus_after)
[ -z "$c" ] || [ "${c%/*}" = "${c#*/}" ] || problems="$problems cpus-online-after-hotplug=$c"
if config_has CONFIG_DEBUG_KMEMLEAK && config_has CONFIG_CPU_ALLOC_STRESS_TEST; then
	k=$(field kmemleak)
	[ "$k" = found ] || problems="$problems kmemleak-leak-not-reported(kmemleak=${k:-none})"
	# Any other report fails (init logs its backtrace); KMEMLEAK_OTHERS=warn
	# only shows it.  The NUMA guest's one 2 MiB report was the memmap
	# that sparse_add_section() kvmallocs for hot-added memory without
	# SPARSEMEM_VMEMMAP (the section holds it only encoded, so kmemleak
	# cannot see the reference); debug.config has VMEMMAP, as Debian has.
	k=$(field kmemleak_others)
	if [ "${k:-0}" != 0 ]; then
		if [ "$KMEMLEAK_OTHERS" = fail ]; then
			problems="$problems kmemleak-reported-$k-other-objects"
		else
			info NOTE "kmemleak reported $k objects besides the planted leak: see init's lines in the log"
		fi
	fi
fi
# inject_KEY: the file whose conversion gives the operation cpu_alloc() calls
inject_user() {
	case $1 in
	inject_kmem_cache) echo mm/slub.c ;;
	inject_netns) echo net/ipv4/af_inet.c ;;
	inject_loop) echo block/bdev.c ;;
	inject_memory) echo mm/page_alloc.c ;;
	*) echo mm/cpu_alloc.c ;;
	esac
}
if config_has CONFIG_FAIL_CPU_ALLOC; then
	[ -n "$(field inject_netns)" ] || problems="$problems fail_cpu_alloc-built-but-not-run"
	for key in inject_kmem_cache inject_netns inject_loop inject_memory; do
		v=$(field $key)
		case "$v" in
		"" | absent) ;;
		[0-9]*/*/*/*)
			IFS=/ read -r i_calls i_failed i_leaks i_bad <<<"$v"
			[ "$i_leaks" = 0 ] || problems="$problems $key-leaks=$i_leaks"
			[ "$i_bad" = 0 ] || problems="$problems $key-bad=$i_bad"
			if [ "$i_calls" = 0 ] && [ "$id" != unknown ] &&
				kgit grep -q -E '\b(CPU_ALLOC|cpu_alloc)\(' "$id" -- "$(inject_user $key)" 2>/dev/null; then
				problems="$problems $key-made-no-cpu_alloc-call"
			fi
			;;
		*) problems="$problems $key=$v" ;;
		esac
	done
fi
n=$(field numa)
case "$n" in "" | absent | ok:*) ;; *) problems="$problems numa=$n" ;; esac
# the page-table dump's cpu area markers (with CONFIG_PTDUMP_DEBUGFS):
# nothing mapped below the base of the slots, something from it
n=$(field ptdump)
case "$n" in
"" | absent) ;;
ok:0/*) [ "${n#ok:0/}" -gt 0 ] 2>/dev/null || problems="$problems ptdump=$n" ;;
*) problems="$problems ptdump=$n" ;;
esac
# arrow A->B: true when B > A (both numbers).
arrow() {
	local a=${1%%->*} b=${1#*->}
	[[ $a =~ ^[0-9]+$ && $b =~ ^[0-9]+$ ]] && [ "$b" -gt "$a" ]
}
nfs=$(field nfs)
case "$nfs" in
ok:*)
	arrow "${nfs#ok:}" || problems="$problems nfs-bytes-did-not-move($nfs)"
	e=$(field nfs_events)
	arrow "$e" || problems="$problems nfs-events-did-not-move(${e:-none})"
	;;
"" | absent)
	config_has CONFIG_NFS_FS && problems="$problems nfs-client-built-but-not-run(nfs=${nfs:-none})" ;;
noserver)
	[ "$NFS" = 0 ] || ! config_has CONFIG_NFS_FS || problems="$problems nfs=noserver" ;;
*) problems="$problems nfs=$nfs" ;;
esac
dmatest=$(field dmatest)
case "$dmatest" in
[0-9]*/*:*)
	IFS=/ read -r d_tests d_rest <<<"${dmatest%%:*}"
	d_failures=$d_rest
	[ "$d_tests" -gt 0 ] 2>/dev/null || problems="$problems dmatest-no-tests"
	[ "$d_failures" = 0 ] || problems="$problems dmatest-failures=$d_failures"
	c=$(printf '%s\n' "${dmatest#*:}" | tr ',' '\n' | sed -n 's/^memcpy_count=//p')
	arrow "$c" || problems="$problems dmatest-memcpy_count-did-not-move(${c:-none})"
	c=$(printf '%s\n' "${dmatest#*:}" | tr ',' '\n' | sed -n 's/^bytes=//p')
	arrow "$c" || problems="$problems dmatest-bytes-did-not-move(${c:-none})"
	;;
"" | absent)
	if config_has CONFIG_SW_MEMCPY_DMA && config_has CONFIG_DMATEST; then
		problems="$problems dmatest-built-but-not-run(dmatest=${dmatest:-none})"
	fi
	;;
*) problems="$problems dmatest=$dmatest" ;;
esac
g=$(field generic)
if [[ $g =~ ^mount=20/20,aio=20,irqs=([0-9]+)-\>([0-9]+),counts_back=yes$ ]]; then
	[ "${BASH_REMATCH[1]}" -gt 0 ] && [ "${BASH_REMATCH[2]}" -ge "${BASH_REMATCH[1]}" ] ||
		problems="$problems generic-irqs($g)"
elif [ -z "$g" ] || [ "$g" = absent ]; then
	if config_has CONFIG_AIO && config_has CONFIG_TMPFS; then
		problems="$problems generic-not-run(generic=${g:-none})"
	fi
else
	problems="$problems generic=$g"
fi
# Memory cgroups: the kernel's test_kmem, the charge of an accounted
# object, and the unprivileged exhaustion test.
v=$(field test_kmem)
case "$v" in
[0-9]*/*/*)
	IFS=/ read -r k_pass k_fail k_skip <<<"$v"
	k_names=$(field test_kmem_failed)
	if [ "$k_fail" != 0 ] && [ "${k_names:-none}" = none ]; then
		problems="$problems test_kmem-failed=$k_fail(unnamed)"
	fi
	for t in $(tr ',' ' ' <<<"$(field test_kmem_flaky | sed 's/^none$//')"); do
		echo "boot.sh: note: test_kmem: $t failed once and passed when run again (flaky in this guest)" >&2
	done
	for t in $(tr ',' ' ' <<<"${k_names#none}"); do
		case ",$KMEM_XFAIL," in
		*",$t,"*) echo "boot.sh: note: test_kmem: $t failed, allowed by KMEM_XFAIL (see scripts/lib.sh)" >&2 ;;
		*)
			k_del=$(field test_kmem_deletion)
			if [ "$t" = test_kmem_memcg_deletion ] && kmem_within_caches "$k_del"; then
				echo "boot.sh: note: test_kmem: $t failed by $k_del bytes/CPUs, within the per-CPU charge caches ($kmem_bound bytes)" >&2
			else
				problems="$problems test_kmem-failed:$t"
			fi
			;;
		esac
	done
	[ "$(field test_percpu_basic)" = pass ] ||
		problems="$problems test_percpu_basic=$(field test_percpu_basic)"
	# what KMEM_SKIP names was skipped; a test that skipped itself is noted
	k_skipped=$(field test_kmem_skipped)
	for t in $(tr ',' ' ' <<<"$KMEM_SKIP"); do
		case ",$k_skipped," in
		*",$t,"*) ;;
		*) problems="$problems test_kmem-not-skipped:$t" ;;
		esac
	done
	for t in $(tr ',' ' ' <<<"${k_skipped#none}"); do
		case ",$KMEM_SKIP," in
		*",$t,"*) ;;
		*) echo "boot.sh: note: test_kmem: $t skipped itself (a feature it needs is missing)" >&2 ;;
		esac
	done
	echo "boot.sh: note: test_kmem: $k_pass passed, $k_skip skipped${KMEM_SKIP:+ (KMEM_SKIP=$KMEM_SKIP)}, in $(field test_kmem_ms) ms" >&2
	;;
"" | absent | no-memcg)
	if config_has CONFIG_MEMCG && [ ${#kmem_lines[@]} != 0 ]; then
		problems="$problems test_kmem-not-run(${v:-none})"
	fi
	;;
*) problems="$problems test_kmem=$v" ;;
esac
v=$(field memcg_percpu)
case "$v" in
"" | absent) ;;
[0-9]*/*/*)
	IFS=/ read -r m_got m_want m_left <<<"$v"
	# the object's size times the possible CPUs, or that plus a pointer
	# (8 bytes) per 4-byte unit of the object for the bookkeeping, as
	# mm/percpu.c charges (since cpu_alloc serves alloc_percpu())
	m_cpus=$(field possible)
	[ "${m_cpus:-0}" -gt 0 ] 2>/dev/null || m_cpus=$MAXCPUS
	m_size=$((m_want / m_cpus))
	[ "$m_got" = "$m_want" ] || [ "$m_got" = $((m_want + m_size / 4 * 8)) ] ||
		problems="$problems memcg_percpu-charged-$m_got-not-$m_want"
	[ "$m_left" = 0 ] || problems="$problems memcg_percpu-left-$m_left"
	;;
*) problems="$problems memcg_percpu=$v" ;;
esac
# The percpu tracepoints (debug config): alloc_percpu() events of a
# memory cgroup's mkdir, frees of the same pointers after its rmdir, and
# a failure event of an injected failure; the guest judges the counts.
v=$(field trace)
case "$v" in
"" | absent)
	if config_has CONFIG_EVENT_TRACING && config_has CONFIG_MEMCG; then
		problems="$problems trace-built-but-not-run"
	fi
	;;
[0-9]*/[0-9]*/*)
	IFS=/ read -r t_allocs t_freed t_fails <<<"$v"
	[ "$t_allocs" -gt 0 ] && [ "$t_freed" -gt 0 ] && [ "$t_fails" != 0 ] ||
		problems="$problems trace-events($v)"
	;;
*) problems="$problems trace=$v" ;;
esac
v=$(field unpriv)
case "$v" in
"" | absent)
	if config_has CONFIG_MEMCG && config_has CONFIG_USER_NS && config_has CONFIG_NET_NS; then
		problems="$problems unpriv-not-run"
	fi
	;;
[0-9]*/*/*)
	IFS=/ read -r u_held u_why u_root <<<"$v"
	[ "$u_held" -gt 0 ] || problems="$problems unpriv-held-none($u_why)"
	[ "$u_root" = ok ] || problems="$problems unpriv-root-failed($u_root)"
	IFS=/ read -r u_max u_oom u_kill <<<"$(field unpriv_events)"
	[ "${u_max:-0}" -gt 0 ] || [ "${u_oom:-0}" -gt 0 ] ||
		problems="$problems unpriv-stopped-not-on-its-cgroup-limit($u_why,events=$(field unpriv_events))"
	f=$(field unpriv_region_full)
	[ "${f:-0}" = 0 ] || problems="$problems unpriv-region-full($f)"
	# (no cpu_alloc region before the series: -1/-1)
	IFS=/ read -r u_free u_total <<<"$(field unpriv_region)"
	if [ "${u_total:--1}" -ge 0 ] && ! [ "${u_free:--1}" -gt $((u_total / 10)) ]; then
		problems="$problems unpriv-region-nearly-full($(field unpriv_region))"
	fi
	;;
*) problems="$problems unpriv=$v" ;;
esac
# cpu_bytes after the holder's end, not above what it was before (below
# when other per-cpu memory went meanwhile: alloc_percpu() is cpu_alloc's)
for key in unpriv_freed root_netns_freed; do
	v=$(field $key)
	[ -z "$v" ] || [ "${v#*/}" -le "${v%/*}" ] 2>/dev/null || problems="$problems $key(cpu_bytes)=$v"
done
if [ "$SMP" -gt 1 ] && ! grep -a -q "smp: Brought up [0-9]* nodes\?, $EXPECT_CPUS CPUs" "$log"; then
	problems="$problems smp-not-$EXPECT_CPUS"
fi
kunit=none
# A KTAP plan of 1..0 (KUnit built in, no suite yet) is no result to parse.
if grep -a -q 'KTAP version\|TAP version' "$log" && grep -a -q '\] 1\.\.[1-9]\|^1\.\.[1-9]' "$log" &&
   [ -f "$SRC/tools/testing/kunit/kunit.py" ]; then
	if python3 "$SRC/tools/testing/kunit/kunit.py" parse "$log" >"$log.kunit" 2>&1; then
		kunit=$(grep -a -o 'Testing complete\..*' "$log.kunit" | tail -n1 || true)
	else
		kunit=$(grep -a -o 'Testing complete\..*' "$log.kunit" | tail -n1 || true)
		problems="$problems kunit.py-parse-failed"
	fi
fi

{
	echo "commit=$id tag=$tag rc=$rc seconds=$secs"
	echo "guest: ${verdict:-none}"
	echo "kunit: ${kunit:-none}"
	echo "host: ${problems:-ok}"
} >"$log.verdict"
if [ -n "$problems" ]; then
	[ -n "$verdict" ] && echo "  $verdict" >&2
	echo "--- last lines of $log" >&2
	tail -n 15 "$log" >&2
	die "boot of $short FAILED:$problems" "log: $log"
fi
info PASS "$short $tag in ${secs}s: ${verdict#cpu_alloc-verdict: PASS }"
[ "$kunit" = none ] || info KUNIT "$kunit"
info LOG "$log"
