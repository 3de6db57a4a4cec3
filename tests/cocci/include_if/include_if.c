// SPDX-License-Identifier: GPL-2.0-only
/* The last <linux/...> include is under #if: the new include goes
 * before the first one. */
#include <linux/percpu.h>
#include <linux/slab.h>
#ifdef CONFIG_FOO_DEBUG
#include <linux/debugfs.h>
#endif

struct foo {
	unsigned long __percpu *stats;
};

void foo_exit(struct foo *f)
{
	free_percpu(f->stats);
}
