// SPDX-License-Identifier: GPL-2.0-only
/*
 * The allocations the collect pass finds: a member, a local stored in a
 * member, a global (of a type, and of an object: *bar_obj), an array
 * element of a local, a __alloc_percpu() of sizeof(*target); three odd
 * ones (cast, computed size, the size of a type) whose allocation and
 * free stay.
 */
#include <linux/percpu.h>
#include <linux/slab.h>
#include "bar.h"

static unsigned int __percpu *bar_hits;
static struct bar_stats __percpu *bar_obj;

int bar_init(struct bar *b, size_t size)
{
	struct bar_stats __percpu *m;
	int cpu;

	b->stats = alloc_percpu(struct bar_stats);
	m = alloc_percpu_gfp(struct bar_stats, GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		per_cpu_ptr(m, cpu)->n = 1;
	b->moved = m;
	b->buf = (char __percpu *)alloc_percpu(struct bar_stats);
	b->blob = __alloc_percpu(size, 8);
	b->exact = __alloc_percpu(sizeof(*b->exact), 8);
	b->typed = __alloc_percpu(sizeof(struct bar_stats), 8);
	bar_hits = alloc_percpu(unsigned int);
	bar_obj = alloc_percpu(*bar_obj);
	return 0;
}

void bar_test(size_t size)
{
	void __percpu *pcpu[4];
	int i;

	for (i = 0; i < 4; i++)
		pcpu[i] = __alloc_percpu(size, 8);
	for (i = 0; i < 4; i++)
		free_percpu(pcpu[i]);
}

void bar_exit(struct bar *b)
{
	free_percpu(b->stats);
	free_percpu(b->moved);
	free_percpu(b->buf);
	free_percpu(b->blob);
	free_percpu(b->exact);
	free_percpu(b->typed);
	free_percpu(b->other);
	free_percpu(bar_hits);
}
