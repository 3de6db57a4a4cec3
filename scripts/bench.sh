#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make bench [QUICK=1]: the per-cpu allocator benchmarks, base vs head.
#
# Builds the base ($BENCH_BASE, default the pinned BASE_COMMIT) and the
# head ($BENCH_HEAD, default $BRANCH) with scripts/build.sh, each in its
# own checkout and O= under $WORK/bench (same config), builds the module
# qemu/bench/cpu_alloc_bench.c against each, and boots each kernel with
# its own initramfs (qemu/bench/init.c + the module):
#   - once under -icount shift=0,sleep=off with one CPU: guest ns are
#     guest instructions, repeatable ("instr");
#   - $BENCH_RUNS times in plain TCG with -smp $BENCH_SMP: the multi-CPU
#     figures, median of the runs ("emulated wall ns").
# The guests print "cpu_alloc-bench: <figure> <value>" lines; the table
# goes to $WORK/bench/bench.md (and stdout), the plot of alloc+free cost
# vs size to $WORK/bench/alloc-free.png.  Nothing is asserted: a figure
# off target does not fail.  QUICK=1: fewer sizes, iterations and runs.
# A kernel already built at the same commit is not rebuilt (REBUILD=1);
# the head's is the main build ($O) when that holds it.  BENCH_BASE=none
# measures the head alone (make test's smoke run: the module builds and
# runs, the report is written; no base kernel is built).
. "$(dirname "$0")/lib.sh"

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

# The init of the bench initramfs and gen_init_cpio, shared by both kernels.
if [ ! -f "$BENCH/init" ] || [ "$TOP/qemu/bench/init.c" -nt "$BENCH/init" ]; then
	vrun ${HOSTCC:-gcc} -static -O2 -Wall -o "$BENCH/init" "$TOP/qemu/bench/init.c" ||
		die "cannot build the static init from qemu/bench/init.c" "it needs gcc and libc6-dev (make deps)"
fi
gic=$BENCH/gen_init_cpio
if [ ! -x "$gic" ]; then
	vrun ${HOSTCC:-gcc} -O2 -o "$gic" "$SRC/usr/gen_init_cpio.c"
fi

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
	cp "$TOP/qemu/bench/Kbuild" "$TOP/qemu/bench/cpu_alloc_bench.c" "$m/"
	info MODULE "$tag: $m/cpu_alloc_bench.ko"
	vrun make -C "$co" O="$o" M="$m" modules >"$LOGS/bench-module-$tag.log" 2>&1 || {
		tail -n 20 "$LOGS/bench-module-$tag.log" >&2
		die "the bench module does not build against $tag (${id:0:12})" "log: $LOGS/bench-module-$tag.log"
	}
	cat >"$BENCH/list-$tag" <<-EOT
		dir /dev 0755 0 0
		nod /dev/console 0600 0 0 c 5 1
		dir /proc 0755 0 0
		dir /sys 0755 0 0
		file /init $BENCH/init 0755 0 0
		file /bench.ko $m/cpu_alloc_bench.ko 0644 0 0
	EOT
	"$gic" "$BENCH/list-$tag" >"$BENCH/initramfs-$tag.cpio"
	echo "$id" >"$BENCH/commit-$tag"
	echo "$o/arch/x86/boot/bzImage" >"$BENCH/image-$tag"
}

# run TAG KIND N: boot kernel TAG; KIND icount (1 CPU) or smp; results
# in $BENCH/results-TAG-KIND-N.txt.
run() {
	local tag=$1 kind=$2 n=$3 log res accel smp bsmp t0 rc
	log=$LOGS/bench-$tag-$kind-$n.log
	res=$BENCH/results-$tag-$kind-$n.txt
	if [ "$kind" = icount ]; then
		accel="-accel tcg -icount shift=0,sleep=off" smp=1 bsmp=0
	else
		accel="-accel tcg" smp=$BENCH_SMP bsmp=1
	fi
	t0=$(date +%s)
	set +e
	# shellcheck disable=SC2086
	vrun timeout -k 5 "$BENCH_TIMEOUT" "$QEMU" $accel -m "$MEM" -smp "$smp" \
		-display none -monitor none -serial stdio -no-reboot \
		-kernel "$(cat "$BENCH/image-$tag")" -initrd "$BENCH/initramfs-$tag.cpio" \
		-append "console=ttyS0 panic=-1 oops=panic loglevel=7 kunit.enable=0 bench_quick=$QUICK bench_smp=$bsmp" \
		${QEMU_EXTRA:-} </dev/null >"$log" 2>&1
	rc=$?
	set -e
	grep -a -o 'cpu_alloc-bench: .*' "$log" | tr -d '\r' | sed 's/^cpu_alloc-bench: //' >"$res" || true
	if ! grep -q '^done$' "$res" || grep -q '^error' "$res" ||
		grep -a -q -E 'WARNING:|BUG:|Oops' "$log"; then
		tail -n 20 "$log" >&2
		die "bench boot $tag $kind #$n failed (rc $rc)" "log: $log"
	fi
	info RAN "$tag $kind #$n in $(($(date +%s) - t0))s: $(grep -c . "$res") figures; log: $log"
}

rm -f "$BENCH"/results-*.txt "$BENCH"/commit-*
[ "$BENCH_BASE" = none ] || prepare base "$BENCH_BASE"
prepare head "$BENCH_HEAD"
for tag in $tags; do
	run "$tag" icount 1
	for i in $(seq 1 "$BENCH_RUNS"); do run "$tag" smp "$i"; done
done

secs=$(($(date +%s) - start_all))
python3 - "$BENCH" "$BENCH_RUNS" "$BENCH_SMP" "$QUICK" "$secs" <<'EOF'
import os, statistics, sys
bench, runs, nsmp, quick, secs = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]

def load(path):
    d, order = {}, []
    if not os.path.exists(path):
        return d, order
    for line in open(path):
        w = line.split()
        if len(w) != 2 or w[0] in ("done", "end"):
            continue
        try:
            d[w[0]] = float(w[1])
        except ValueError:
            continue
        order.append(w[0])
    return d, order

def derive(d):
    # total per-cpu memory: Percpu: of /proc/meminfo plus what cpu_alloc maps
    ca0 = d.get("mem/cpu_alloc_mapped_alloc_percpu_before", 0)
    d["mem/percpu_total_boot"] = d.get("mem/percpu_boot", 0) + ca0
    for a in ("alloc_percpu", "cpu_alloc"):
        k = "mem/percpu_delta_10000x4/" + a
        if k in d:
            d["mem/total_10000x4/" + a] = d[k] + d.get("mem/cpu_alloc_mapped_%s_after" % a, 0) \
                - d.get("mem/cpu_alloc_mapped_%s_before" % a, 0)
    return d

fig, order = {}, []
# the head's order first: it has the cpu_alloc figures next to the others
for tag in ("head", "base"):
    d, o = load("%s/results-%s-icount-1.txt" % (bench, tag))
    d = derive(d)
    for k in o + [k for k in d if k not in o]:
        if k not in order:
            order.append(k)
    fig[tag] = d
    smp = {}
    for i in range(1, runs + 1):
        d, o = load("%s/results-%s-smp-%d.txt" % (bench, tag, i))
        d = derive(d)
        for k in o + [k for k in d if k not in o]:
            smp.setdefault(k, []).append(d[k])
            if "smp:" + k not in order:
                order.append("smp:" + k)
    for k, v in smp.items():
        fig[tag]["smp:" + k] = statistics.median(v)

skip = ("have_cpu_alloc", "nr_cpu_ids", "online_cpus", "ktime_get_ns", "smp:have_cpu_alloc",
        "smp:nr_cpu_ids", "smp:online_cpus", "smp:ktime_get_ns")
def kind(k):
    if k.startswith("smp:mem/"):
        return "bytes, %s CPUs" % nsmp
    if k.startswith("smp:"):
        return "emulated wall ns"
    if k.startswith("mem/"):
        return "bytes, 1 CPU"
    if k.startswith("boot/"):
        return "icount ns"
    return "instr"
def fmt(v):
    if v is None:
        return "-"
    return "%.0f" % v if abs(v) >= 100 or v == int(v) else "%.2f" % v
def ratio(a, b):
    return "%.2f" % (a / b) if a is not None and b else "-"

b, h = fig["base"], fig["head"]
out = []
out.append("# make bench%s: base vs head" % (" QUICK=1" if quick == "1" else ""))
out.append("")
def commit(tag):
    p = "%s/commit-%s" % (bench, tag)
    return open(p).read().strip()[:12] if os.path.exists(p) else "none"
out.append("base %s, head %s; instr: guest instructions per operation (QEMU -icount shift=0,sleep=off, 1 CPU);"
           % (commit("base"), commit("head")))
out.append("emulated wall ns: plain TCG -smp %s, median of %d run(s); bytes: per-cpu memory over all possible CPUs."
           % (nsmp, runs))
out.append("Figures: <test>/<allocator>/<size B>/<variant>; pair = alloc+free pairs, batch-* = N allocs then N frees"
           " (per pair); live = 4-byte objects of the same allocator kept allocated. make bench took %ss." % secs)
out.append("")
out.append("| figure | kind | base | head | head/base | cpu_alloc/alloc_percpu (head) |")
out.append("|---|---|---:|---:|---:|---:|")
for k in order:
    if k in skip or "mem/cpu_alloc_mapped_" in k or "mem/cpu_alloc_bytes_" in k:
        continue
    bv, hv = b.get(k), h.get(k)
    if "/cpu_alloc" in k:
        bv = None
    cr = "-"
    # (not for the raw memory deltas: Percpu: does not count cpu_alloc's pages)
    if "/cpu_alloc" in k and "mem/percpu_delta" not in k and "mem/cpu_bytes" not in k:
        cr = ratio(hv, h.get(k.replace("/cpu_alloc", "/alloc_percpu")))
    out.append("| %s | %s | %s | %s | %s | %s |" % (k, kind(k), fmt(bv), fmt(hv), ratio(hv, bv), cr))

# The targets of the series, reported (never asserted): the worst ratio
# over the figures of each target, exact (icount, memory) and emulated
# (-smp) figures apart.
def worst(keys, f):
    vals = [(f(k), k) for k in keys]
    vals = [(v, k) for v, k in vals if v is not None]
    return max(vals) if vals else (None, "-")
def r_ca(k):
    pk = k.replace("/cpu_alloc", "/alloc_percpu")
    return h[k] / h[pk] if k in h and h.get(pk) else None
def r_hb(k):
    return h[k] / b[k] if k in h and b.get(k) else None
def r_ca_base(k):
    pk = k.replace("/cpu_alloc", "/alloc_percpu")
    return h[k] / b[pk] if k in h and b.get(pk) else None
def target(what, wanted, keys, f, ok):
    for sel, label in ((lambda k: not k.startswith("smp:"), ""), (lambda k: k.startswith("smp:"), " (-smp %s)" % nsmp)):
        ks = [k for k in keys if sel(k)]
        if not ks:
            continue
        v, k = worst(ks, f)
        # emulated figures: 5% of noise allowed
        st = "-" if v is None else ("met" if ok(v / 1.05 if label else v) else "NOT met")
        out.append("| %s%s | %s | %s | %s | %s |" % (what, label, wanted, "-" if v is None else "%.2f" % v, k, st))
def figs(pred):
    return [k for k in order if pred(k.split(":", 1)[-1])]
out.append("")
out.append("| target | wanted | worst ratio | at figure | |")
out.append("|---|---|---:|---|---|")
target("CPU_ALLOC+CPU_FREE / alloc_percpu+free_percpu, 1000 live", "<= 0.25",
       figs(lambda k: k.startswith(("pair", "batch-")) and "/cpu_alloc/" in k and k.endswith("/live1000")),
       r_ca, lambda x: x <= 0.25)
target("this_cpu_inc/add, THIS_CPU on CPU_ALLOC / on alloc_percpu", "1.00",
       figs(lambda k: k.startswith("this_cpu_") and "/cpu_alloc" in k), r_ca, lambda x: x <= 1.005)
target("this_cpu_inc/add, this_cpu_ptr on alloc_percpu, head / base", "1.00",
       figs(lambda k: k.startswith("this_cpu_") and "/alloc_percpu" in k), r_hb, lambda x: x <= 1.005)
target("sum over all CPUs, CPU_PTR / per_cpu_ptr", "< 1.00",
       figs(lambda k: k.startswith("sum_cpus/cpu_alloc")), r_ca, lambda x: x < 1.0)
target("SLUB kmalloc, kfree, pairs, head / base", "<= 1.00",
       figs(lambda k: k.startswith(("kmalloc", "kfree"))), r_hb, lambda x: x <= 1.005)
target("per-cpu memory after boot (Percpu: + cpu_alloc mapped), head / base", "<= 1.00",
       figs(lambda k: k == "mem/percpu_total_boot"), r_hb, lambda x: x <= 1.0)
target("10000 four-byte counters: CPU_ALLOC on head / alloc_percpu on base", "<= 1.00",
       figs(lambda k: k == "mem/total_10000x4/cpu_alloc"), r_ca_base, lambda x: x <= 1.0)
target("boot to init, head / base", "-",
       figs(lambda k: k == "boot/ns_to_init"), r_hb, lambda x: True)
out.append("")
out.append("SLUB and this_cpu targets allow 0.5%% for rounding, the -smp rows 5%% for noise.  Emulated-ns figures are noisy (%d host CPUs for %s vCPUs,"
           " shared); only the icount figures are exact.  Memory deltas count pages newly populated (Percpu: of"
           " /proc/meminfo) or mapped by cpu_alloc (cpu_alloc_stats), so space already populated at boot is free."
           % (os.cpu_count(), nsmp))
out.append("For the 6.1 anchor figures (1000 live: 1635-1643 instr at 4 B, ~7950 at 64 B) compare batch-inorder/alloc_percpu/*/live1000.")
text = "\n".join(out) + "\n"
open(bench + "/bench.md", "w").write(text)
sys.stdout.write(text)

# the plot data: alloc+free cost vs size, 1000 live, icount
with open(bench + "/alloc-free.dat", "w") as f:
    f.write("# size, then instr per alloc+free pair with 1000 live, pair and batch-inorder:"
            " base-alloc_percpu head-alloc_percpu head-cpu_alloc\n")
    for s in (4, 8, 16, 64, 256, 1024, 4096):
        vals = []
        for t in ("pair", "batch-inorder"):
            k = t + "/%s/%d/live1000"
            vals += [b.get(k % ("alloc_percpu", s)), h.get(k % ("alloc_percpu", s)), h.get(k % ("cpu_alloc", s))]
        if all(v is None for v in vals):
            continue
        f.write("%d %s\n" % (s, " ".join("NaN" if v is None else str(v) for v in vals)))
EOF

if command -v gnuplot >/dev/null; then
	gnuplot <<-EOT || warn "gnuplot failed: no $BENCH/alloc-free.png"
		set terminal pngcairo noenhanced size 900,600
		set output "$BENCH/alloc-free.png"
		set title "alloc+free with 1000 four-byte objects live, 1 CPU, QEMU -icount\npair: alloc, free; batch: N allocs (at most 1000, 256 KiB), then their frees"
		set xlabel "object size (bytes)"
		set ylabel "guest instructions per alloc+free"
		set logscale xy
		set xtics (4, 8, 16, 64, 256, 1024, 4096)
		set key bottom right opaque box
		set grid
		plot "$BENCH/alloc-free.dat" using 1:2 with linespoints lc 1 pt 1 title "base: alloc_percpu, pair", \\
		     "" using 1:3 with linespoints lc 2 pt 2 title "head: alloc_percpu, pair", \\
		     "" using 1:4 with linespoints lc 3 pt 7 title "head: cpu_alloc, pair", \\
		     "" using 1:5 with linespoints lc 1 dt 2 pt 1 title "base: alloc_percpu, batch", \\
		     "" using 1:6 with linespoints lc 2 dt 2 pt 2 title "head: alloc_percpu, batch", \\
		     "" using 1:7 with linespoints lc 3 dt 2 pt 7 title "head: cpu_alloc, batch"
	EOT
else
	warn "gnuplot not found (apt-get install gnuplot-nox): no plot"
fi
info TABLE "$BENCH/bench.md"
info PLOT "$BENCH/alloc-free.png"
info TIME "make bench$([ "$QUICK" = 1 ] && echo " QUICK=1") in $(($(date +%s) - start_all))s"
