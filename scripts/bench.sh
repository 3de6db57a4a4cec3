#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench [QUICK=1]: the per-cpu allocator benchmarks, base vs head.
#
# Builds the base ($BENCH_BASE, default the pinned BASE_COMMIT) and the
# head ($BENCH_HEAD, default $BRANCH) with scripts/build.sh, each in its
# own checkout and O= under $WORK/bench (same config), builds the modules
# of qemu/bench/ (cpu_alloc_bench.c, and pcpu_static.c of the module
# workload) against each, and boots each kernel with its own initramfs
# (qemu/bench/init.c + the modules), each time twice: the module's
# benchmarks, then the workloads (network namespaces, memory cgroups,
# module loads; fewer with QUICK=1):
#   - once under -icount shift=0,sleep=off with one CPU: guest ns are
#     guest instructions, repeatable ("instr");
#   - $BENCH_RUNS times in plain TCG with -smp $BENCH_SMP: the multi-CPU
#     figures, median of the runs ("emulated wall ns").
# The guests print "cpu_alloc-bench: <figure> <value>" lines; the table
# (scripts/bench-report.py) goes to $WORK/bench/bench.md (and stdout),
# the plot of alloc+free cost vs size (scripts/bench-plot.gp) to
# $WORK/bench/alloc-free.png.  Nothing is asserted: a figure
# off target does not fail, but a guest's "error ..." line does.
# QUICK=1: fewer sizes, iterations and runs.
# A kernel already built at the same commit is not rebuilt (REBUILD=1);
# the head's is the main build ($O) when that holds it.  BENCH_BASE=none
# measures the head alone (make test's smoke run: the module builds and
# runs, the report is written; no base kernel is built).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/qemu.sh"

BENCH=${BENCH:-$WORK/bench}
BENCH_BASE=${BENCH_BASE:-$(lock_get BASE_COMMIT)}
tags="base head"
[ "$BENCH_BASE" = none ] && tags=head
BENCH_HEAD=${BENCH_HEAD:-$BRANCH}
BENCH_SMP=${BENCH_SMP:-4}
if [ "$QUICK" = 1 ]; then BENCH_RUNS=${BENCH_RUNS:-1}; else BENCH_RUNS=${BENCH_RUNS:-3}; fi
BENCH_TIMEOUT=${BENCH_TIMEOUT:-1200}

[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
command -v "$QEMU" >/dev/null || die "$QEMU not found" "run: make deps"
command -v python3 >/dev/null || die "python3 not found" "run: make deps"
mkdir -p "$BENCH" "$LOGS"
start_all=$(date +%s)

# prepare TAG REV: kernel, module and initramfs of REV in $BENCH/*-TAG.
prepare() {
	local tag=$1 rev=$2 id o co m
	id=$(resolve "$rev")
	# $BENCH/TAG/{build,checkout}: the same relative layout as the main
	# build's, so that ccache (CCACHE_BASEDIR=$WORK) hits across them.
	o=$BENCH/$tag/build
	co=$BENCH/$tag/checkout
	if [ "${REBUILD:-0}" != 1 ] && [ -z "$CONFIG_EXTRA" ] && [ "$(cat "$O/.cpu-alloc-built" 2>/dev/null)" = "$id" ] &&
		[ "$(git -C "$CHECKOUT" rev-parse HEAD 2>/dev/null)" = "$id" ]; then
		# the main build holds this commit, with the same config
		o=$O co=$CHECKOUT
		info BUILT "$tag ${id:0:12} already in $o"
	elif [ "${REBUILD:-0}" != 1 ] && [ "$(cat "$o/.cpu-alloc-built" 2>/dev/null)" = "$id" ] &&
		[ "$(git -C "$co" rev-parse HEAD 2>/dev/null)" = "$id" ] &&
		[ "$o/arch/x86/boot/bzImage" -nt "$TOP/qemu/cpu_alloc.config" ]; then
		info BUILT "$tag ${id:0:12} already in $o"
	else
		O=$o CHECKOUT=$co REV=$id CONFIG_EXTRA= "$TOP/scripts/build.sh"
	fi
	m=$BENCH/mod-$tag
	rm -rf "$m"
	mkdir -p "$m"
	cp "$TOP/qemu/bench/Kbuild" "$TOP/qemu/bench/cpu_alloc_bench.c" "$TOP/qemu/bench/pcpu_static.c" "$m/"
	info MODULE "$tag: $m/cpu_alloc_bench.ko $m/pcpu_static.ko"
	vrun make -C "$co" O="$o" M="$m" modules >"$LOGS/bench-module-$tag.log" 2>&1 || {
		tail -n 20 "$LOGS/bench-module-$tag.log" >&2
		die "the bench modules do not build against $tag (${id:0:12})" "log: $LOGS/bench-module-$tag.log"
	}
	initramfs "$BENCH/initramfs-$tag.cpio" "$TOP/qemu/bench/init.c" \
		"file /bench.ko $m/cpu_alloc_bench.ko 0644 0 0" "file /pcpu_static.ko $m/pcpu_static.ko 0644 0 0"
	echo "$id" >"$BENCH/commit-$tag"
	# whether Percpu: of /proc/meminfo counts cpu_alloc's pages itself
	if grep -q cpu_alloc_nr_pages "$co/mm/percpu.c" 2>/dev/null; then
		echo 1 >"$BENCH/percpu-counts-ca-$tag"
	else
		echo 0 >"$BENCH/percpu-counts-ca-$tag"
	fi
	echo "$o/arch/x86/boot/bzImage" >"$BENCH/image-$tag"
}

# run TAG KIND N: boot kernel TAG; KIND icount (1 CPU) or smp; results
# in $BENCH/results-TAG-KIND-N.txt.  Two boots: the module's benchmarks
# (log bench-TAG-KIND-N.log), then the workloads (bench_workloads=1, log
# bench-TAG-KIND-N-workloads.log), so that the workloads start from a
# fresh boot's per-cpu memory and the benchmarks' figures stay as they
# were.
run() {
	local tag=$1 kind=$2 n=$3 log res accel smp bsmp what wl rc why
	res=$BENCH/results-$tag-$kind-$n.txt
	if [ "$kind" = icount ]; then
		accel="-accel tcg -icount shift=0,sleep=off" smp=1 bsmp=0
	else
		accel="-accel tcg" smp=$BENCH_SMP bsmp=1
	fi
	: >"$res"
	for what in bench workloads; do
		rc=0 wl=0 log=$LOGS/bench-$tag-$kind-$n.log
		[ "$what" = workloads ] && wl=1 log=$LOGS/bench-$tag-$kind-$n-workloads.log
		# shellcheck disable=SC2086
		qemu_run "$log" "$BENCH_TIMEOUT" $accel -smp "$smp" \
			-kernel "$(cat "$BENCH/image-$tag")" -initrd "$BENCH/initramfs-$tag.cpio" \
			-append "console=ttyS0 panic=-1 oops=panic loglevel=7 kunit.enable=0 bench_quick=$QUICK bench_smp=$bsmp bench_workloads=$wl" ||
			rc=$?
		grep -a -o 'cpu_alloc-bench: .*' "$log" | tr -d '\r' | sed 's/^cpu_alloc-bench: //' >"$res.$what" || true
		# why: "error ..." (the module or a workload failed), no "done"
		# (the module's benchmarks did not end), no "end" (init did
		# not get to its last line), a splat
		why=
		if grep -q '^error' "$res.$what"; then
			why=$(grep -m1 '^error' "$res.$what" | sed 's/^error //')
		elif [ "$what" = bench ] && ! grep -q '^done$' "$res.$what"; then
			why='no "done" from the module'
		elif ! grep -q '^end$' "$res.$what"; then
			why='the guest stopped before "end"'
		elif grep -a -q -E 'WARNING:|BUG:|Oops' "$log"; then
			why='a splat in the log'
		fi
		if [ -n "$why" ]; then
			tail -n 20 "$log" >&2
			grep '^error' "$res.$what" | sed 's/^/  /' >&2 || true
			die "bench boot $tag $kind #$n ($what) failed (rc $rc): $why" "log: $log"
		fi
		info RAN "$tag $kind #$n $what in ${qemu_secs%.*}s: $(grep -c . "$res.$what") figures; log: $log"
		cat "$res.$what" >>"$res"
		rm -f "$res.$what"
	done
}

rm -f "$BENCH"/results-*.txt* "$BENCH"/commit-* "$BENCH"/percpu-counts-ca-*
[ "$BENCH_BASE" = none ] || prepare base "$BENCH_BASE"
prepare head "$BENCH_HEAD"
for tag in $tags; do
	run "$tag" icount 1
	for i in $(seq 1 "$BENCH_RUNS"); do run "$tag" smp "$i"; done
done

secs=$(($(date +%s) - start_all))
python3 "$TOP/scripts/bench-report.py" "$BENCH" "$BENCH_RUNS" "$BENCH_SMP" "$QUICK" "$secs" "$(nproc)"
if command -v gnuplot >/dev/null; then
	gnuplot -e "dir='$BENCH'" "$TOP/scripts/bench-plot.gp" || warn "gnuplot failed: no $BENCH/alloc-free.png"
else
	warn "gnuplot not found (apt-get install gnuplot-nox): no plot"
fi
info TABLE "$BENCH/bench.md"
info PLOT "$BENCH/alloc-free.png"
info TIME "make bench$([ "$QUICK" = 1 ] && echo " QUICK=1") in $(($(date +%s) - start_all))s"
