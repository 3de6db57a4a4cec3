// SPDX-License-Identifier: GPL-2.0-only
/*
 * pcpu_static: a module with static per-cpu data (DEFINE_PER_CPU), for
 * the module workload of make bench (scripts/bench.sh).
 *
 * Built out of tree against each kernel, like cpu_alloc_bench.ko, and
 * loaded and unloaded many times by qemu/bench/init.c: each load places
 * the module's .data..percpu section in the reserved per-cpu area
 * (percpu_modalloc()), each unload frees it.  On init the module checks
 * that its static per-cpu variables work on every possible CPU: it
 * writes each CPU's copy through per_cpu_ptr() and per_cpu(),
 * increments the local copy with this_cpu_inc(), reads them all back
 * with for_each_possible_cpu() and fails with -EINVAL (a line
 * "cpu_alloc-bench: error pcpu_static ..." in the log) if a sum is off.
 * It prints nothing when all is well: the console is slow under QEMU.
 */
#define pr_fmt(fmt) "cpu_alloc-bench: " fmt

#include <linux/cpumask.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/smp.h>

/* the counter that this_cpu_inc() increments on the local CPU */
static DEFINE_PER_CPU(unsigned long, pcpu_static_count);
/* a larger object, so that the section is more than one word */
static DEFINE_PER_CPU(u32 [64], pcpu_static_buf);

static int __init pcpu_static_init(void)
{
	unsigned long want = 0, sum = 0, bsum = 0, bwant = 0;
	int cpu, local, i;

	for_each_possible_cpu(cpu) {
		u32 *b = per_cpu_ptr(pcpu_static_buf, cpu);

		*per_cpu_ptr(&pcpu_static_count, cpu) = cpu + 1;
		want += cpu + 1;
		for (i = 0; i < 64; i++) {
			b[i] = cpu * 64 + i;
			bwant += cpu * 64 + i;
		}
	}
	/* the local CPU's copy, seen through this_cpu_*() and per_cpu() */
	local = get_cpu();
	this_cpu_inc(pcpu_static_count);
	want++;
	if (per_cpu(pcpu_static_count, local) != local + 2) {
		put_cpu();
		pr_err("error pcpu_static cpu %d: this_cpu_inc() gave %lu, not %d\n",
		       local, per_cpu(pcpu_static_count, local), local + 2);
		return -EINVAL;
	}
	put_cpu();
	for_each_possible_cpu(cpu) {
		sum += per_cpu(pcpu_static_count, cpu);
		for (i = 0; i < 64; i++)
			bsum += per_cpu(pcpu_static_buf, cpu)[i];
	}
	if (sum != want || bsum != bwant) {
		pr_err("error pcpu_static sums over %u possible CPUs: %lu (want %lu), %lu (want %lu)\n",
		       num_possible_cpus(), sum, want, bsum, bwant);
		return -EINVAL;
	}
	return 0;
}

static void __exit pcpu_static_exit(void)
{
}

module_init(pcpu_static_init);
module_exit(pcpu_static_exit);
MODULE_DESCRIPTION("static per-cpu data, checked on every possible CPU (make bench)");
MODULE_LICENSE("GPL");
