#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# The report of make bench (scripts/bench.sh):
#
#   bench-report.py DIR RUNS SMP QUICK SECONDS HOSTCPUS
#
# reads DIR/results-{base,head}-icount-1.txt and -smp-1..RUNS.txt (the
# guests' "<figure> <value>" lines) and DIR/commit-{base,head}, writes
# the table DIR/bench.md (and to stdout) and the plot data
# DIR/alloc-free.dat for scripts/bench-plot.gp.  The workloads' figures
# (workload/<name>/{count,ns,percpu,cpu_bytes}, from the guests' second
# boot) get a table of their own.  tests/bench/ holds stored results and
# the bench.md they give (make selftest checks it).
import os, statistics, sys
bench, runs, nsmp, quick, secs, hostcpus = (sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5],
                                          int(sys.argv[6]))

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

def counts_ca(tag):
    # Percpu: counts cpu_alloc's pages itself (scripts/bench.sh)
    p = "%s/percpu-counts-ca-%s" % (bench, tag)
    return os.path.exists(p) and open(p).read().strip() == "1"

def derive(d, tag):
    # total per-cpu memory: Percpu: of /proc/meminfo plus what cpu_alloc
    # maps, unless Percpu: counts that already
    ca = 0 if counts_ca(tag) else 1
    ca0 = d.get("mem/cpu_alloc_mapped_alloc_percpu_before", 0)
    # (a figure lost on the console stays missing, not 0)
    if "mem/percpu_boot" in d:
        d["mem/percpu_total_boot"] = d["mem/percpu_boot"] + ca * ca0
    for a in ("alloc_percpu", "cpu_alloc"):
        k = "mem/percpu_delta_10000x4/" + a
        if k in d:
            d["mem/total_10000x4/" + a] = d[k] + ca * (d.get("mem/cpu_alloc_mapped_%s_after" % a, 0)
                                                       - d.get("mem/cpu_alloc_mapped_%s_before" % a, 0))
    return d

fig, order = {}, []
# the head's order first: it has the cpu_alloc figures next to the others
for tag in ("head", "base"):
    d, o = load("%s/results-%s-icount-1.txt" % (bench, tag))
    d = derive(d, tag)
    for k in o + [k for k in d if k not in o]:
        if k not in order:
            order.append(k)
    fig[tag] = d
    smp = {}
    for i in range(1, runs + 1):
        d, o = load("%s/results-%s-smp-%d.txt" % (bench, tag, i))
        d = derive(d, tag)
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
           " (per pair); live = 4-byte objects of the same allocator kept allocated; pair-same/mixed/frag keep N objects"
           " of the measured size, N random 4-256 B objects, or 2N of which every other one is freed. make bench took %ss." % secs)
out.append("")
out.append("| figure | kind | base | head | head/base | cpu_alloc/alloc_percpu (head) |")
out.append("|---|---|---:|---:|---:|---:|")
for k in order:
    if k in skip or "mem/cpu_alloc_mapped_" in k or "mem/cpu_alloc_bytes_" in k or k.split(":")[-1].startswith("workload/"):
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
# Against the base's alloc_percpu(): on the head alloc_percpu() is served
# by cpu_alloc too (commit "serve alloc_percpu() from cpu_alloc"), so the
# head's own alloc_percpu figures are no yardstick.
target("CPU_ALLOC+CPU_FREE on head / alloc_percpu+free_percpu on base, 1000 live", "<= 0.25",
       figs(lambda k: k.startswith(("pair", "batch-")) and "/cpu_alloc/" in k and k.endswith("/live1000")),
       r_ca_base, lambda x: x <= 0.25)
target("alloc_percpu+free_percpu, head / base (every live set)", "<= 1.00",
       figs(lambda k: k.startswith(("pair", "batch-")) and "/alloc_percpu/" in k),
       r_hb, lambda x: x <= 1.0)
target("live sets same/mixed/frag: cpu_alloc on head / alloc_percpu on base", "<= 0.50",
       figs(lambda k: k.startswith(("pair-same", "pair-mixed", "pair-frag")) and "/cpu_alloc/" in k),
       r_ca_base, lambda x: x <= 0.5)
target("the same, 4 B to 1 KiB", "<= 0.30",
       figs(lambda k: k.startswith(("pair-same", "pair-mixed", "pair-frag")) and "/cpu_alloc/" in k
            and int(k.split("/")[2]) <= 1024),
       r_ca_base, lambda x: x <= 0.3)
target("this_cpu_inc/add, THIS_CPU on CPU_ALLOC / on alloc_percpu", "1.00",
       figs(lambda k: k.startswith("this_cpu_") and "/cpu_alloc" in k), r_ca, lambda x: x <= 1.005)
target("this_cpu_inc/add, this_cpu_ptr on alloc_percpu, head / base", "1.00",
       figs(lambda k: k.startswith("this_cpu_") and "/alloc_percpu" in k), r_hb, lambda x: x <= 1.005)
target("sum over all CPUs, CPU_PTR / per_cpu_ptr", "< 1.00",
       figs(lambda k: k.startswith("sum_cpus/cpu_alloc")), r_ca, lambda x: x < 1.0)
target("sum over all CPUs with per_cpu_ptr(), per_cpu() (static), head / base", "<= 1.00",
       figs(lambda k: k.startswith(("sum_cpus/alloc_percpu", "sum_cpus/static"))), r_hb, lambda x: x <= 1.005)
target("SLUB kmalloc, kfree, pairs, head / base", "<= 1.00",
       figs(lambda k: k.startswith(("kmalloc", "kfree"))), r_hb, lambda x: x <= 1.005)
target("per-cpu memory after boot (Percpu: + cpu_alloc mapped), head / base", "<= 1.00",
       figs(lambda k: k == "mem/percpu_total_boot"), r_hb, lambda x: x <= 1.0)
target("10000 four-byte counters: CPU_ALLOC on head / alloc_percpu on base", "<= 1.00",
       figs(lambda k: k == "mem/total_10000x4/cpu_alloc"), r_ca_base, lambda x: x <= 1.0)
target("boot to init, head / base", "-",
       figs(lambda k: k == "boot/ns_to_init"), r_hb, lambda x: True)

# The workloads (qemu/bench/init.c, in a boot of their own): time per
# operation and the per-cpu memory after each, head against base.
WORKLOADS = (("netns", "create and destroy a network namespace"),
             ("memcg", "create and destroy a memory cgroup"),
             ("module", "load and unload pcpu_static.ko, a module with static per-cpu data"))
def ran(tag):
    # the tag's guests ran at all (BENCH_BASE=none: no base)
    return bool(fig[tag])
def per_op(d, k):
    t, n = d.get(k), d.get(k.replace("/ns", "/count"))
    return t / n if t is not None and n else None
def pcpu_after(d, tag, k):
    # Percpu: is all of the per-cpu memory, unless the kernel has
    # cpu_alloc (cpu_bytes) and Percpu: does not count its pages
    if not counts_ca(tag) and k.rsplit("/", 2)[0] + "/start/cpu_bytes" in d:
        return None
    return d.get(k)
# wl: the table's rows as (figure, measure, base, head); missing: the
# figures that a guest which ran did not print (a line lost, a workload
# skipped)
wl, missing = [], []
def cell(tag, d, k, v):
    if ran(tag) and k not in d:
        missing.append("%s (%s)" % (k, tag))
        return "missing"
    return fmt(v)
smpn = "%s CPUs" % nsmp
# rows: (figure, workload, measure, how the value is made of the figures)
rows = [("mem/percpu_total_boot", "after boot", "per-cpu bytes, 1 CPU", None),
        ("smp:mem/percpu_total_boot", "after boot", "per-cpu bytes, " + smpn, None)]
for w, _ in WORKLOADS:
    n = h.get("workload/%s/count" % w, b.get("workload/%s/count" % w))
    name = w if n is None else "%s x%s" % (w, fmt(n))
    rows += [("workload/%s/ns" % w, name, "icount ns per op", per_op),
             ("smp:workload/%s/ns" % w, name, "emulated wall ns per op, " + smpn, per_op),
             ("workload/%s/percpu" % w, name, "per-cpu bytes after, 1 CPU", pcpu_after),
             ("smp:workload/%s/percpu" % w, name, "per-cpu bytes after, " + smpn, pcpu_after)]
    if "workload/%s/cpu_bytes" % w in h:
        rows.append(("workload/%s/cpu_bytes" % w, name, "cpu_alloc bytes in use after (cpu_bytes), 1 CPU", None))
out.append("")
out.append("Workloads, in a boot of their own, one operation at a time:" + "".join(" %s: %s;" % wt for wt in WORKLOADS)
           + " timed until the last namespace or cgroup is torn down.  icount ns include the guest's idle time"
           " (-icount sleep=off skips it, e.g. waiting for RCU).  Per-cpu bytes: Percpu: of /proc/meminfo after the"
           " workload (-: that kernel's Percpu: lacks cpu_alloc's pages).  The time targets allow 0.5% (icount) and"
           " 5% (-smp).")
out.append("")
out.append("| workload | measure | base | head | head/base |")
out.append("|---|---|---:|---:|---:|")
for k, name, measure, f in rows:
    bv, hv = b.get(k), h.get(k)
    if f is per_op:
        bv, hv = per_op(b, k), per_op(h, k)
    elif f is pcpu_after:
        bv, hv = pcpu_after(b, "base", k), pcpu_after(h, "head", k)
    cb = "-" if "cpu_bytes" in k else cell("base", b, k, bv)
    out.append("| %s | %s | %s | %s | %s |" % (name, measure, cb, cell("head", h, k, hv), ratio(hv, bv)))
    wl.append((k, measure, bv, hv))
# The workload targets, reported like the others (worst head/base ratio),
# "NOT measured" when a guest that ran left one of their figures out.
def wl_target(what, wanted, sel, noise):
    sel = [r for r in wl if sel(r[0], r[1])]
    vals = [(hv / bv, k) for k, m, bv, hv in sel if bv and hv is not None]
    miss = [m for m in missing if m.split(" ")[0] in [r[0] for r in sel]]
    v, k = max(vals) if vals else (None, "-")
    if miss:
        st = "NOT measured: %d figure(s) missing, %s%s" % (len(miss), ", ".join(miss[:2]), ", ..." if miss[2:] else "")
    else:
        st = "-" if v is None else ("met" if v / noise <= 1.0 else "NOT met")
    out.append("| %s | %s | %s | %s | %s |" % (what, wanted, "-" if v is None else "%.2f" % v, k, st))
out.append("")
out.append("| workload target | wanted | worst ratio | at figure | |")
out.append("|---|---|---:|---|---|")
# (icount: 0.5% for the idle time that the figures include; -smp: 5% for noise)
wl_target("no workload slower than the base, head / base", "<= 1.00",
          lambda k, m: m == "icount ns per op", 1.005)
wl_target("no workload slower than the base, head / base (-smp %s)" % nsmp, "<= 1.00",
          lambda k, m: k.startswith("smp:") and "per op" in m, 1.05)
wl_target("per-cpu memory after boot at most the base's", "<= 1.00",
          lambda k, m: k.endswith("mem/percpu_total_boot"), 1.0)
wl_target("per-cpu memory after each workload at most the base's", "<= 1.00",
          lambda k, m: m.startswith("per-cpu bytes after"), 1.0)
out.append("")
out.append("SLUB and this_cpu targets allow 0.5%% for rounding, the -smp rows 5%% for noise.  Emulated-ns figures are noisy (%d host CPUs for %s vCPUs,"
           " shared); only the icount figures are exact.  Memory deltas count pages newly populated (Percpu: of"
           " /proc/meminfo) or mapped by cpu_alloc (cpu_alloc_stats), so space already populated at boot is free."
           % (hostcpus, nsmp))
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
