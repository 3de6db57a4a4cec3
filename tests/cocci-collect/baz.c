// SPDX-License-Identifier: GPL-2.0-only
/*
 * Uses of the targets of bar.c in another file: the collect pass of
 * bar.c makes them targets here too.  ->other was never allocated, and
 * per_cpu() of static data is not an API call of the conversion.
 */
#include <linux/percpu.h>
#include "bar.h"

static DEFINE_PER_CPU(unsigned long, baz_count);

unsigned long baz_sum(struct bar *b)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += *(unsigned long *)per_cpu_ptr(b->buf, cpu) +
		       per_cpu_ptr(b->stats, cpu)->n +
		       per_cpu_ptr(b->moved, cpu)->n +
		       per_cpu_ptr(b->other, cpu)->n +
		       per_cpu(baz_count, cpu);
	return sum + this_cpu_ptr(b->stats)->n;
}
