// SPDX-License-Identifier: GPL-2.0-only
/*
 * The four allocators, the free and the three accessors, with and
 * without a cast, on the target foo->stats; the same calls on
 * foo->other and on static per-cpu data stay.
 */
#include <linux/percpu.h>
#include <linux/slab.h>
#include "local.h"

struct foo_stats {
	unsigned long count;
};

struct foo {
	struct foo_stats __percpu *stats;
	struct foo_stats __percpu *other;
};

static DEFINE_PER_CPU(struct foo_stats, boot_stats);

int foo_init(struct foo *f, size_t size, gfp_t gfp)
{
	f->stats = alloc_percpu(struct foo_stats);
	f->stats = alloc_percpu_gfp(struct foo_stats, gfp);
	f->stats = __alloc_percpu(sizeof(struct foo_stats), __alignof__(u64));
	f->stats = __alloc_percpu_gfp(size, 8, gfp);
	f->other = alloc_percpu(struct foo_stats);
	return f->stats ? 0 : -ENOMEM;
}

unsigned long foo_sum(struct foo *f)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		sum += per_cpu_ptr(f->stats, cpu)->count;
		sum += ((struct foo_stats *)per_cpu_ptr(f->stats, cpu))->count;
		sum += per_cpu_ptr(f->other, cpu)->count;
		sum += per_cpu_ptr(&boot_stats, cpu)->count;
	}
	sum += this_cpu_ptr(f->stats)->count;
	sum += raw_cpu_ptr(f->stats)->count;
	this_cpu_inc(f->stats->count);
	return sum;
}

void foo_exit(struct foo *f)
{
	free_percpu(f->other);
	free_percpu(f->stats);
}
