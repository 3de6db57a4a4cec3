// SPDX-License-Identifier: GPL-2.0-only
#include <linux/percpu.h>

/* A local variable assigned a target, a VARS parameter, an ALLOC_FUNCS
 * return and the address of a member of a target. */
#include <linux/slab.h>

struct foo_stats {
	unsigned long count;
};

struct foo {
	struct foo_stats __percpu *stats;
};

static struct foo_stats __percpu *foo_alloc_stats(void)
{
	return alloc_percpu(struct foo_stats);
}

static struct foo_stats __percpu *bar_alloc_stats(void)
{
	return alloc_percpu(struct foo_stats);
}

static void foo_free_stats(struct foo_stats __percpu *st)
{
	free_percpu(st);
}

static void bar_free_stats(struct foo_stats __percpu *st)
{
	free_percpu(st);
}

unsigned long foo_sum(struct foo *f)
{
	struct foo_stats __percpu *s = f->stats;
	struct foo_stats __percpu *t;
	unsigned long sum = 0;
	int cpu;

	t = f->stats;
	for_each_possible_cpu(cpu) {
		sum += per_cpu_ptr(s, cpu)->count;
		sum += per_cpu_ptr(t, cpu)->count;
		sum += *per_cpu_ptr(&f->stats->count, cpu);
	}
	return sum;
}
