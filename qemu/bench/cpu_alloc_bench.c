// SPDX-License-Identifier: GPL-2.0-only
/*
 * cpu_alloc-bench: micro-benchmarks of the per-cpu allocators, for
 * scripts/bench.sh (make bench).
 *
 * Built out of tree against each kernel (base and series head) and loaded
 * by qemu/bench/init.c.  Every result is one line
 *
 *	cpu_alloc-bench: <figure> <value>
 *
 * where the value is guest ktime_get_ns() nanoseconds per operation: under
 * QEMU -icount shift=0 that is guest instructions, in a plain TCG -smp 4
 * guest it is emulated wall time.  Figures are named
 * <test>/<allocator>/<size>/<variant>; the allocator is "alloc_percpu"
 * (__alloc_percpu() + free_percpu(), per_cpu_ptr(), this_cpu_ptr()) or
 * "cpu_alloc" (cpu_alloc() + cpu_free(), CPU_PTR(), THIS_CPU()), which
 * exists only with CONFIG_CPU_ALLOC.
 *
 * Parameters:
 *	mode=bench	run the timing benchmarks (default)
 *	mode=mem_pcpu	allocate 10000 4-byte counters with alloc_percpu and
 *			keep them until the module is removed
 *	mode=mem_ca	the same with CPU_ALLOC(u32, ...)
 *	quick=1		fewer iterations and cases
 *	smp=1		the multi-CPU benchmarks (needs several CPUs online)
 *	align_size=1	align objects to their size (at most PAGE_SIZE)
 *
 * Both allocators are asked for zeroed memory (cpu_alloc() with
 * __GFP_ZERO, as alloc_percpu() always zeroes), with the natural
 * alignment of an object of that size: min(size, 8).  The "live" objects
 * are 4-byte counters of the allocator under test, allocated before the
 * timed loop and freed after it; the pair-{same,mixed,frag} figures keep
 * other live sets (bench_livesets()).
 */
#define pr_fmt(fmt) "cpu_alloc-bench: " fmt

#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_CPU_ALLOC
#include <linux/cpu_alloc.h>
#define HAVE_CA 1
#else
#define HAVE_CA 0
#endif

static char *mode = "bench";
module_param(mode, charp, 0444);
static int quick;
module_param(quick, int, 0444);
static int smp;
module_param(smp, int, 0444);
static int align_size;
module_param(align_size, int, 0444);

enum { A_PCPU, A_CA, NR_ALLOC };
static const char *const aname[NR_ALLOC] = { "alloc_percpu", "cpu_alloc" };

static const unsigned long sizes[] = { 4, 8, 16, 64, 256, 1024, 4096 };
static const unsigned long quick_sizes[] = { 4, 64, 1024 };

/*
 * In the -smp guest, time is emulated wall time and the host preempts the
 * vCPU threads: each multi-CPU figure is the minimum of several runs.
 * Under -icount one run is exact.
 */
#define BEST(expr)							\
({									\
	u64 __best = U64_MAX;						\
	int __r;							\
									\
	for (__r = 0; __r < (smp ? (quick ? 3 : 5) : 1); __r++)		\
		__best = min_t(u64, __best, (expr));			\
	__best;								\
})

static u64 now(void)
{
	return ktime_get_ns();
}

/* report: print ns per operation with two decimals. */
static void report(u64 ns, unsigned long ops, const char *fmt, ...)
{
	char name[96];
	va_list ap;
	u64 v;

	va_start(ap, fmt);
	vsnprintf(name, sizeof(name), fmt, ap);
	va_end(ap);
	if (!ops)
		ops = 1;
	v = div64_u64(ns * 100, ops);
	pr_info("%s %llu.%02llu\n", name, v / 100, v % 100);
}

static void report_int(const char *name, long long v)
{
	pr_info("%s %lld\n", name, v);
}

/* natural alignment, a power of two: the mixed live sets have odd sizes */
static unsigned long align_of(unsigned long size)
{
	if (align_size)
		return min(roundup_pow_of_two(size), PAGE_SIZE);
	return size < 8 ? roundup_pow_of_two(size) : 8;
}

static void __percpu *xalloc(int a, unsigned long size)
{
	if (a == A_PCPU)
		return __alloc_percpu(size, align_of(size));
#if HAVE_CA
	return cpu_alloc(size, GFP_KERNEL | __GFP_ZERO, align_of(size));
#else
	return NULL;
#endif
}

static void xfree(int a, void __percpu *p, unsigned long size)
{
	if (a == A_PCPU)
		free_percpu(p);
#if HAVE_CA
	else
		cpu_free(p, size);
#endif
}

/* The live set: n 4-byte objects of allocator a. */
static void __percpu **live_alloc(int a, unsigned long n)
{
	void __percpu **v = vzalloc(sizeof(*v) * (n ? n : 1));
	unsigned long i;

	if (!v)
		return NULL;
	for (i = 0; i < n; i++) {
		v[i] = xalloc(a, 4);
		if (!v[i]) {
			pr_err("live set: allocation %lu of %lu failed\n", i, n);
			break;
		}
		if (!(i & 1023))
			cond_resched();
	}
	return v;
}

static void live_free(int a, void __percpu **v, unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n && v[i]; i++) {
		xfree(a, v[i], 4);
		if (!(i & 1023))
			cond_resched();
	}
	vfree(v);
}

/* Alloc+free pairs: p = alloc(); free(p); n times. */
static u64 pairs(int a, unsigned long size, unsigned long n)
{
	void __percpu *p;
	unsigned long i;
	u64 t;

	/* warm up: a first allocation may populate or map memory */
	p = xalloc(a, size);
	if (!p)
		return 0;
	xfree(a, p, size);
	t = now();
	for (i = 0; i < n; i++) {
		p = xalloc(a, size);
		xfree(a, p, size);
	}
	return now() - t;
}

enum { ORD_INORDER, ORD_REVERSE, ORD_INTERLEAVED, NR_ORD };
static const char *const oname[NR_ORD] = { "inorder", "reverse", "interleaved" };

/*
 * n allocations, then their frees in allocation order, in reverse, or
 * interleaved (the even ones, then the odd ones).  Returns the time of
 * the whole, so that /n is the cost of an alloc+free pair.
 */
static u64 batch(int a, unsigned long size, unsigned long n, int ord, void __percpu **v)
{
	unsigned long i;
	u64 t = now();

	for (i = 0; i < n; i++)
		v[i] = xalloc(a, size);
	switch (ord) {
	case ORD_INORDER:
		for (i = 0; i < n; i++)
			xfree(a, v[i], size);
		break;
	case ORD_REVERSE:
		for (i = n; i-- > 0;)
			xfree(a, v[i], size);
		break;
	default:
		for (i = 0; i < n; i += 2)
			xfree(a, v[i], size);
		for (i = 1; i < n; i += 2)
			xfree(a, v[i], size);
	}
	t = now() - t;
	for (i = 0; i < n; i++)
		if (!v[i])
			return 0;
	return t;
}

static void bench_alloc_free(void)
{
	static const unsigned long lives[] = { 0, 1000, 100000 };
	const unsigned long *sz = quick ? quick_sizes : sizes;
	int nsz = quick ? ARRAY_SIZE(quick_sizes) : ARRAY_SIZE(sizes);
	int nlives = quick ? 2 : 3;
	unsigned long npairs = quick ? 200 : 1000;
	void __percpu **v = vzalloc(sizeof(*v) * 1000);
	int a, l, s, o;

	if (!v)
		return;
	/* both allocators' live sets at once, so that their rows alternate */
	for (l = 0; l < nlives; l++) {
		void __percpu **live[NR_ALLOC] = { };

		for (a = 0; a < NR_ALLOC; a++)
			if (a != A_CA || HAVE_CA)
				live[a] = live_alloc(a, lives[l]);
		for (s = 0; s < nsz; s++) {
			/* at most 256 KiB per CPU in one batch */
			unsigned long nb = min(quick ? 200UL : 1000UL, (256UL << 10) / sz[s]);

			for (o = -1; o < NR_ORD; o++) {
				if (quick && o > ORD_INORDER && lives[l] != 1000)
					continue;
				for (a = 0; a < NR_ALLOC; a++) {
					if (!live[a])
						continue;
					if (o < 0)
						report(pairs(a, sz[s], npairs), npairs, "pair/%s/%lu/live%lu",
						       aname[a], sz[s], lives[l]);
					else
						report(batch(a, sz[s], nb, o, v), nb, "batch-%s/%s/%lu/live%lu",
						       oname[o], aname[a], sz[s], lives[l]);
				}
			}
			cond_resched();
		}
		for (a = 0; a < NR_ALLOC; a++)
			if (live[a])
				live_free(a, live[a], lives[l]);
	}
	vfree(v);
}

/*
 * Live sets other than 4-byte counters, so that neither allocator is
 * measured only in the state it likes best: "same", n objects of the
 * measured size; "mixed", n objects of random sizes from 4 to 256 bytes;
 * "frag", 2n such objects of which every other one is freed again.  The
 * sizes come from a fixed seed, so that both allocators (and both
 * kernels) see the same sequence.
 */
enum { SET_SAME, SET_MIXED, SET_FRAG, NR_SET };
static const char *const setname[NR_SET] = { "same", "mixed", "frag" };

struct liveset {
	void __percpu **p;
	u16 *size;
	unsigned long n;
};

static u32 set_seed;

static u32 set_rand(void)
{
	set_seed = set_seed * 1103515245 + 12345;
	return set_seed >> 8;
}

static void set_free(int a, struct liveset *ls)
{
	unsigned long i;

	for (i = 0; ls->p && i < ls->n; i++) {
		if (ls->p[i])
			xfree(a, ls->p[i], ls->size[i]);
		if (!(i & 1023))
			cond_resched();
	}
	vfree(ls->p);
	vfree(ls->size);
	memset(ls, 0, sizeof(*ls));
}

/* Build live set @set of @n objects for allocator @a; false if it fails */
static bool set_alloc(int a, struct liveset *ls, int set, unsigned long size,
		      unsigned long n)
{
	unsigned long i;

	ls->n = set == SET_FRAG ? 2 * n : n;
	ls->p = vzalloc(sizeof(*ls->p) * (ls->n ? ls->n : 1));
	ls->size = vzalloc(sizeof(*ls->size) * (ls->n ? ls->n : 1));
	if (!ls->p || !ls->size)
		goto fail;
	set_seed = 12345;
	for (i = 0; i < ls->n; i++) {
		ls->size[i] = set == SET_SAME ? size : 4 + set_rand() % 253;
		ls->p[i] = xalloc(a, ls->size[i]);
		if (!ls->p[i])
			goto fail;
		if (!(i & 1023))
			cond_resched();
	}
	if (set == SET_FRAG)
		for (i = 0; i < ls->n; i += 2) {
			xfree(a, ls->p[i], ls->size[i]);
			ls->p[i] = NULL;
		}
	return true;
fail:
	pr_info("live set %s/%lu of %lu x %s: allocation failed\n", setname[set],
		size, n, aname[a]);
	set_free(a, ls);
	return false;
}

static void bench_livesets(void)
{
	static const unsigned long ssz[] = { 4, 16, 64, 256, 1024, 4096 };
	static const unsigned long ns[] = { 1000, 100000 };
	unsigned long npairs = quick ? 200 : 1000;
	int a, set, s, l;

	for (l = 0; l < (quick ? 1 : 2); l++) {
		for (set = 0; set < NR_SET; set++) {
			for (a = 0; a < NR_ALLOC; a++) {
				struct liveset ls = { };

				if (a == A_CA && !HAVE_CA)
					continue;
				if (set != SET_SAME && !set_alloc(a, &ls, set, 0, ns[l]))
					continue;
				for (s = 0; s < ARRAY_SIZE(ssz); s++) {
					/* at most 64 MiB per CPU of live set */
					if (set == SET_SAME && (ssz[s] * ns[l] > (64UL << 20) ||
					    !set_alloc(a, &ls, set, ssz[s], ns[l])))
						continue;
					report(pairs(a, ssz[s], npairs), npairs, "pair-%s/%s/%lu/live%lu",
					       setname[set], aname[a], ssz[s], ns[l]);
					if (set == SET_SAME)
						set_free(a, &ls);
					cond_resched();
				}
				set_free(a, &ls);
			}
		}
	}
}

/*
 * Bulk: n objects allocated, then all freed, per operation: the
 * seed's "100000 IP tunnels" (64 B) and Dennis Zhou's 2017 benchmark
 * (4 B counters), 1,000,000 and 100,000 (a tenth with quick=1).
 */
static void bench_bulk(void)
{
	static const struct { unsigned long size, n; } runs[] = {
		{ 4, 1000000 }, { 64, 100000 },
	};
	void __percpu **v;
	unsigned long i, n, got;
	int a, r;
	u64 t;

	for (r = 0; r < ARRAY_SIZE(runs); r++) {
		n = quick ? runs[r].n / 10 : runs[r].n;
		v = vzalloc(sizeof(*v) * n);
		if (!v)
			return;
		for (a = 0; a < NR_ALLOC; a++) {
			if (a == A_CA && !HAVE_CA)
				continue;
			t = now();
			for (got = 0; got < n; got++) {
				v[got] = xalloc(a, runs[r].size);
				if (!v[got])
					break;
			}
			t = now() - t;
			if (got < n)
				pr_info("bulk %s/%lu: %lu of %lu allocated\n", aname[a],
					runs[r].size, got, n);
			else
				report(t, n, "bulk-alloc/%s/%lu/n%lu", aname[a], runs[r].size, n);
			t = now();
			for (i = 0; i < got; i++)
				xfree(a, v[i], runs[r].size);
			t = now() - t;
			if (got == n)
				report(t, n, "bulk-free/%s/%lu/n%lu", aname[a], runs[r].size, n);
			cond_resched();
		}
		vfree(v);
	}
}

/* this_cpu operations and pointers on memory of each allocator. */
static noinline u64 loop_inc(u32 __percpu *p, unsigned long n)
{
	unsigned long i;
	u64 t = now();

	for (i = n; i; i--)
		this_cpu_inc(*p);
	return now() - t;
}

static noinline u64 loop_add(u32 __percpu *p, unsigned long n)
{
	unsigned long i;
	u64 t = now();

	for (i = n; i; i--)
		this_cpu_add(*p, 3);
	return now() - t;
}

static noinline u64 loop_this_cpu_ptr(u32 __percpu *p, unsigned long n)
{
	unsigned long i;
	u64 t = now();

	preempt_disable();
	for (i = 0; i < n; i++) {
		u32 *q = this_cpu_ptr(p);

		WRITE_ONCE(*q, READ_ONCE(*q) + 1);
		barrier();
	}
	preempt_enable();
	return now() - t;
}

static noinline u64 loop_sum_per_cpu_ptr(u32 __percpu *p, unsigned long n, u32 *res)
{
	unsigned long i;
	u32 sum = 0;
	u64 t = now();
	int cpu;

	for (i = 0; i < n; i++) {
		for_each_possible_cpu(cpu)
			sum += READ_ONCE(*per_cpu_ptr(p, cpu));
		barrier();
	}
	t = now() - t;
	*res = sum;
	return t;
}

/*
 * A static per-cpu counter (the module's .data..percpu), summed over every
 * possible CPU with per_cpu(): per_cpu_offset() loads __per_cpu_offset[cpu]
 * on the base, and is computed from the cpu area on the head.
 */
static DEFINE_PER_CPU(u32, bench_static_count);

static noinline u64 loop_sum_static(unsigned long n, u32 *res)
{
	unsigned long i;
	u32 sum = 0;
	u64 t = now();
	int cpu;

	for (i = 0; i < n; i++) {
		for_each_possible_cpu(cpu)
			sum += READ_ONCE(per_cpu(bench_static_count, cpu));
		barrier();
	}
	t = now() - t;
	*res = sum;
	return t;
}

#if HAVE_CA
static noinline u64 loop_THIS_CPU(u32 __percpu *p, unsigned long n)
{
	unsigned long i;
	u64 t = now();

	preempt_disable();
	for (i = 0; i < n; i++) {
		u32 *q = THIS_CPU(p);

		WRITE_ONCE(*q, READ_ONCE(*q) + 1);
		barrier();
	}
	preempt_enable();
	return now() - t;
}

static noinline u64 loop_sum_CPU_PTR(u32 __percpu *p, unsigned long n, u32 *res)
{
	unsigned long i;
	u32 sum = 0;
	u64 t = now();
	int cpu;

	for (i = 0; i < n; i++) {
		for_each_possible_cpu(cpu)
			sum += READ_ONCE(*CPU_PTR(p, cpu));
		barrier();
	}
	t = now() - t;
	*res = sum;
	return t;
}
#endif

static void bench_this_cpu(void)
{
	unsigned long n = quick ? 20000 : 200000;
	unsigned long ns = quick ? 2000 : 20000;
	u32 __percpu *pp = alloc_percpu(u32);
#if HAVE_CA
	u32 __percpu *pc;
#endif
	u32 res;

	if (!pp)
		return;
#if HAVE_CA
	pc = CPU_ALLOC(u32, GFP_KERNEL | __GFP_ZERO);
#endif
	report(BEST(loop_inc(pp, n)), n, "this_cpu_inc/alloc_percpu");
#if HAVE_CA
	if (pc)
		report(BEST(loop_inc(pc, n)), n, "this_cpu_inc/cpu_alloc");
#endif
	report(BEST(loop_add(pp, n)), n, "this_cpu_add/alloc_percpu");
#if HAVE_CA
	if (pc)
		report(BEST(loop_add(pc, n)), n, "this_cpu_add/cpu_alloc");
#endif
	report(BEST(loop_this_cpu_ptr(pp, n)), n, "this_cpu_ptr/alloc_percpu");
#if HAVE_CA
	if (pc)
		report(BEST(loop_THIS_CPU(pc, n)), n, "this_cpu_ptr/cpu_alloc");
#endif
	report(BEST(loop_sum_per_cpu_ptr(pp, ns, &res)), ns, "sum_cpus/alloc_percpu/%u", nr_cpu_ids);
	report(BEST(loop_sum_static(ns, &res)), ns, "sum_cpus/static/%u", nr_cpu_ids);
#if HAVE_CA
	if (pc) {
		report(BEST(loop_sum_CPU_PTR(pc, ns, &res)), ns, "sum_cpus/cpu_alloc/%u", nr_cpu_ids);
		CPU_FREE(pc);
	}
#endif
	free_percpu(pp);
}

/* SLUB: n kmallocs of one size, then their kfrees; and pairs. */
static void bench_slub(void)
{
	unsigned long n = quick ? 2000 : 10000;
	void **v = vzalloc(sizeof(*v) * n);
	unsigned long size, i;
	u64 t;

	if (!v)
		return;
	for (size = 8; size <= 4096; size <<= 1) {
		/* warm up the slab of this size */
		for (i = 0; i < n; i++)
			v[i] = kmalloc(size, GFP_KERNEL);
		for (i = 0; i < n; i++)
			kfree(v[i]);

		t = now();
		for (i = 0; i < n; i++)
			v[i] = kmalloc(size, GFP_KERNEL);
		report(now() - t, n, "kmalloc/%lu/x%lu", size, n);
		t = now();
		for (i = 0; i < n; i++)
			kfree(v[i]);
		report(now() - t, n, "kfree/%lu/x%lu", size, n);
		t = now();
		for (i = 0; i < n; i++)
			kfree(kmalloc(size, GFP_KERNEL));
		report(now() - t, n, "kmalloc+kfree/%lu", size);
		cond_resched();
	}
	vfree(v);
}

/* Pairs from every online CPU at once. */
static struct {
	int a;
	unsigned long size, n;
	atomic_t ready, running;
	int go;
	u64 t0, t1;
	struct completion done;
} conc;

static int conc_thread(void *unused)
{
	unsigned long i;
	void __percpu *p;

	if (atomic_dec_and_test(&conc.ready)) {
		conc.t0 = now();
		smp_store_release(&conc.go, 1);
	}
	while (!smp_load_acquire(&conc.go))
		cpu_relax();
	for (i = 0; i < conc.n; i++) {
		p = xalloc(conc.a, conc.size);
		xfree(conc.a, p, conc.size);
	}
	if (atomic_dec_and_test(&conc.running)) {
		conc.t1 = now();
		complete(&conc.done);
	}
	return 0;
}

static u64 concurrent(int a, unsigned long size, unsigned long n)
{
	int cpu, nr = num_online_cpus();
	struct task_struct *t;

	conc.a = a;
	conc.size = size;
	conc.n = n;
	conc.go = 0;
	atomic_set(&conc.ready, nr);
	atomic_set(&conc.running, nr);
	init_completion(&conc.done);
	for_each_online_cpu(cpu) {
		t = kthread_create(conc_thread, NULL, "ca-bench/%d", cpu);
		if (IS_ERR(t))
			return 0;
		kthread_bind(t, cpu);
		wake_up_process(t);
	}
	wait_for_completion(&conc.done);
	return conc.t1 - conc.t0;
}

static void bench_smp(void)
{
	const unsigned long *sz = quick ? quick_sizes : sizes;
	int nsz = quick ? ARRAY_SIZE(quick_sizes) : ARRAY_SIZE(sizes);
	unsigned long n = quick ? 200 : 1000;
	int a, s, cpus = num_online_cpus();
	void __percpu **live[NR_ALLOC] = { };

	for (a = 0; a < NR_ALLOC; a++)
		if (a != A_CA || HAVE_CA)
			live[a] = live_alloc(a, 1000);
	for (s = 0; s < nsz; s++) {
		for (a = 0; a < NR_ALLOC; a++)
			if (live[a])
				report(BEST(pairs(a, sz[s], n)), n, "pair-1cpu/%s/%lu/live1000",
				       aname[a], sz[s]);
		for (a = 0; a < NR_ALLOC; a++)
			if (live[a])
				report(BEST(concurrent(a, sz[s], n)), n, "pair-%dcpus/%s/%lu/live1000",
				       cpus, aname[a], sz[s]);
	}
	for (a = 0; a < NR_ALLOC; a++)
		if (live[a])
			live_free(a, live[a], 1000);
}

/* mode=mem_*: the counters kept until rmmod. */
static void __percpu **mem_v;
static int mem_a = -1;
#define MEM_N 10000

#if HAVE_CA
static void report_ca_stats(const char *when)
{
	struct cpu_alloc_stats st;
	char name[64];

	cpu_alloc_stats(&st);
	snprintf(name, sizeof(name), "mem/cpu_alloc_mapped_%s", when);
	report_int(name, (long long)st.mapped_bytes * num_possible_cpus());
	snprintf(name, sizeof(name), "mem/cpu_alloc_bytes_%s", when);
	report_int(name, st.bytes);
}
#else
static void report_ca_stats(const char *when) { }
#endif

static int mem_phase(int a)
{
	char name[64];

	if (a == A_CA && !HAVE_CA)
		return -ENODEV;
	snprintf(name, sizeof(name), "%s_before", aname[a]);
	report_ca_stats(name);
	mem_v = live_alloc(a, MEM_N);
	if (!mem_v)
		return -ENOMEM;
	mem_a = a;
	snprintf(name, sizeof(name), "%s_after", aname[a]);
	report_ca_stats(name);
	return 0;
}

static int __init bench_init(void)
{
	u64 t;

	if (!strcmp(mode, "mem_pcpu"))
		return mem_phase(A_PCPU);
	if (!strcmp(mode, "mem_ca"))
		return mem_phase(A_CA);
	report_int("have_cpu_alloc", HAVE_CA);
	report_int("nr_cpu_ids", nr_cpu_ids);
	report_int("online_cpus", num_online_cpus());
	t = now();
	t = now() - t;
	report(t, 1, "ktime_get_ns");
	if (smp) {
		bench_smp();
		bench_this_cpu();
	} else {
		bench_this_cpu();
		bench_slub();
		bench_alloc_free();
		bench_livesets();
		bench_bulk();
	}
	pr_info("done\n");
	return 0;
}

static void __exit bench_exit(void)
{
	if (mem_v)
		live_free(mem_a, mem_v, MEM_N);
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_DESCRIPTION("cpu_alloc and alloc_percpu micro-benchmarks");
MODULE_LICENSE("GPL");
