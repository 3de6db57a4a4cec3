#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make kaslr-check: the base of the cpu area, and so every per-cpu
# address, is random per boot unless "nokaslr" is given.
#
# Boots the kernel built in $O three times with scripts/boot.sh, each
# boot checked as usual (a short stress run, no NFS server, test_kmem
# without the two tests bisect-check skips): twice as it
# is, once with "nokaslr".  From each console log it reads what the KUnit
# case "kaslr" logged (the base of the cpu area and each CPU's stack
# canary address) and the boot line, then checks:
#   - the two plain boots say the base is randomized, and differ in the
#     base and in the canary addresses of CPU 0 and CPU 1;
#   - the "nokaslr" boot says it is not randomized and has its base at
#     the start of the area, 0xfffffe8000000000.
# Two random bases are the same with odds of 1 in 2^17 or less; the
# failure says so.  KASLR_LOGS="A B N" compares three console logs
# already made instead of booting (the selftest uses it).
. "$(dirname "$0")/lib.sh"

start_of_area=0xfffffe8000000000

if [ -n "${KASLR_LOGS:-}" ]; then
	read -r log_a log_b log_n <<<"$KASLR_LOGS"
else
	[ -f "$O/arch/x86/boot/bzImage" ] || die "no kernel image in $O" "run: make build"
	grep -q '^CONFIG_RANDOMIZE_CPU_AREA=y' "$O/.config" ||
		die "the kernel in $O has no CONFIG_RANDOMIZE_CPU_AREA" "build a commit that has it: make build"
	id=$(cat "$O/.cpu-alloc-built" 2>/dev/null || echo unknown)
	for tag in kaslr-a kaslr-b nokaslr; do
		extra=
		[ "$tag" = nokaslr ] && extra=nokaslr
		BOOT_TAG=$tag APPEND="${APPEND:-} $extra" NFS=0 STRESS_OPS=${STRESS_OPS:-20000} \
			KMEM_SKIP=${KMEM_SKIP:-$KMEM_SKIP_REPEATED} "$TOP/scripts/boot.sh" ||
			die "the $tag boot failed" "log: $LOGS/boot-${id:0:12}-$tag.log"
	done
	# boot.sh adds "-numa" to the tag of a NUMA (DEBUG=1) kernel
	log_a=$(ls -t "$LOGS/boot-${id:0:12}-kaslr-a"*.log 2>/dev/null | head -n1 || true)
	log_b=$(ls -t "$LOGS/boot-${id:0:12}-kaslr-b"*.log 2>/dev/null | head -n1 || true)
	log_n=$(ls -t "$LOGS/boot-${id:0:12}-nokaslr"*.log 2>/dev/null | head -n1 || true)
fi

# value LOG WHAT: the hex address after WHAT in LOG (first match).
value() {
	grep -a -o "$2 0x[0-9a-f]*" "$1" | head -n1 | sed 's/.* //'
}

fail=0
problem() { echo "kaslr-check: $*" >&2; fail=1; }
for log in "$log_a" "$log_b" "$log_n"; do
	[ -f "$log" ] || die "no console log $log"
	[ -n "$(value "$log" 'cpu area base')" ] ||
		problem "$log: no \"cpu area base\" line from KUnit's kaslr case"
done
[ "$fail" = 0 ] || exit 1

printf '%-8s %-20s %-20s %-20s %s\n' boot base "cpu 0 canary" "cpu 1 canary" "boot line"
for log in "$log_a" "$log_b" "$log_n"; do
	line=$(grep -a -o 'cpu area base randomized\|cpu area at 0x[0-9a-f]*, not randomized' "$log" | head -n1)
	printf '%-8s %-20s %-20s %-20s %s\n' "$(basename "$log" .log | sed 's/.*-\(kaslr-.\|nokaslr\)\(-numa\)\{0,1\}$/\1/')" \
		"$(value "$log" 'cpu area base')" "$(value "$log" 'cpu 0 stack canary at')" \
		"$(value "$log" 'cpu 1 stack canary at')" "${line:-none}"
done

for log in "$log_a" "$log_b"; do
	grep -a -q 'cpu area base randomized' "$log" ||
		problem "$(basename "$log"): the boot line does not say the base is randomized"
done
for what in 'cpu area base' 'cpu 0 stack canary at' 'cpu 1 stack canary at'; do
	a=$(value "$log_a" "$what")
	b=$(value "$log_b" "$what")
	[ -n "$a" ] && [ -n "$b" ] || { problem "no \"$what\" in both boots"; continue; }
	[ "$a" != "$b" ] ||
		problem "\"$what\" is $a in both boots (by chance at most 1 in 2^17: run it again)"
done
grep -a -q 'not randomized (nokaslr)' "$log_n" ||
	problem "$(basename "$log_n"): the boot line does not say nokaslr kept the base"
[ "$(value "$log_n" 'cpu area base')" = "$start_of_area" ] ||
	problem "with nokaslr the base is $(value "$log_n" 'cpu area base'), not $start_of_area"
[ "$fail" = 0 ] || exit 1
echo "kaslr-check: PASS (two bases, two canary addresses per CPU; nokaslr at $start_of_area)"
