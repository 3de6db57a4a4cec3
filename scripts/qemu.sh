# SPDX-License-Identifier: GPL-2.0-only
# The boot helpers of make boot and make bench (and of any new boot):
# an initramfs from a static init and a list of files, and a QEMU run
# with a console log and a timeout.  Sourced after lib.sh, never run;
# QEMU, MEM, KVM and the paths come from lib.sh.

# initramfs CPIO INIT_C [LINE...]: CPIO, an initramfs whose /init is the
# static program built from INIT_C (with qemu/lib.h; kept as
# ${CPIO%.cpio}.init, rebuilt when older than its sources) and the
# nodes the kernel needs before devtmpfs, plus the gen_init_cpio LINEs
# ("file /bench.ko PATH 0644 0 0", "dir /tmp 1777 0 0").
initramfs() {
	local cpio=$1 src=$2 init=${1%.cpio}.init gic=$WORK/initramfs/gen_init_cpio
	shift 2
	mkdir -p "$(dirname "$cpio")" "$WORK/initramfs"
	# Both programs are compiled through ccache, when there is one (a
	# new WORK, as CI's and each selftest case's, compiles them again),
	# then linked: ccache does not keep a link.
	local cc=()
	use_ccache && cc=(ccache)
	# shellcheck disable=SC2206 # HOSTCC may carry words
	cc+=(${HOSTCC:-gcc})
	if [ ! -f "$init" ] || [ "$src" -nt "$init" ] || [ "$TOP/qemu/lib.h" -nt "$init" ]; then
		# (from the source's directory, by relative paths: the same
		# sources in another checkout hit ccache too)
		{ (cd "$(dirname "$src")" &&
			vrun "${cc[@]}" -O2 -Wall -I"$(realpath --relative-to=. "$TOP/qemu")" -c -o "$init.o" "${src##*/}") &&
			vrun ${HOSTCC:-gcc} -static -o "$init" "$init.o"; } ||
			die "cannot build the static init from ${src#"$TOP"/}" "it needs gcc and libc6-dev (make deps)"
	fi
	if [ ! -x "$gic" ]; then
		[ -f "$SRC/usr/gen_init_cpio.c" ] || die "no usr/gen_init_cpio.c in $SRC" "run: make tree"
		(cd "$SRC/usr" && vrun "${cc[@]}" -O2 -c -o "$gic.o" gen_init_cpio.c) && vrun ${HOSTCC:-gcc} -o "$gic" "$gic.o"
	fi
	{
		printf '%s\n' "dir /dev 0755 0 0" "nod /dev/console 0600 0 0 c 5 1" "dir /proc 0755 0 0" \
			"dir /sys 0755 0 0" "$@" "file /init $init 0755 0 0"
	} >"${cpio%.cpio}.list"
	"$gic" "${cpio%.cpio}.list" >"$cpio"
}

# qemu_run LOG TIMEOUT QEMU-ARGS...: boot QEMU ($QEMU, -m $MEM, no
# display, the serial console on stdout, no reboot, $QEMU_EXTRA) with
# the console in LOG; killed after TIMEOUT seconds.  Its exit status is
# QEMU's: 124 or 137 after the timeout.  Sets qemu_secs, the seconds it ran.
qemu_run() {
	local log=$1 timeout=$2 start rc=0
	shift 2
	command -v "$QEMU" >/dev/null || die "$QEMU not found" "run: make deps"
	mkdir -p "$(dirname "$log")"
	start=$(date +%s.%N)
	# shellcheck disable=SC2086
	vrun timeout -k 5 "$timeout" "$QEMU" -m "$MEM" -display none -monitor none -serial stdio -no-reboot \
		"$@" ${QEMU_EXTRA:-} </dev/null >"$log" 2>&1 || rc=$?
	qemu_secs=$(echo "$start $(date +%s.%N)" | awk '{printf "%.1f", $2 - $1}')
	return $rc
}
