/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef _DEMO_H
#define _DEMO_H
/* A header: its include guard does not count as #if; a macro body names
 * the target by file (VARS). */
#include <linux/percpu.h>
#include <linux/types.h>

struct foo {
	unsigned long __percpu *stats;
};

#define demo_read(m, cpu)	(*per_cpu_ptr(m, cpu))
#define demo_other(n, cpu)	(*per_cpu_ptr(n, cpu))

static inline unsigned long *foo_this(struct foo *f)
{
	return this_cpu_ptr(f->stats);
}

#endif
