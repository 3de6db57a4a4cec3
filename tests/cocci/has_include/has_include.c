// SPDX-License-Identifier: GPL-2.0-only
#include <linux/cpu_alloc.h>
#include <linux/percpu.h>

struct foo {
	unsigned long __percpu *stats;
};

void foo_exit(struct foo *f)
{
	free_percpu(f->stats);
}
