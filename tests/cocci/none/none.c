// SPDX-License-Identifier: GPL-2.0-only
/* Nothing of the target: nothing changes, no include is added. */
#include <linux/percpu.h>

static DEFINE_PER_CPU(unsigned long, count);

struct bar {
	unsigned long __percpu *other;
};

unsigned long bar_read(struct bar *b, int cpu)
{
	return *per_cpu_ptr(b->other, cpu) + *per_cpu_ptr(&count, cpu);
}

void bar_exit(struct bar *b)
{
	free_percpu(b->other);
}
