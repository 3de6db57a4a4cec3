// SPDX-License-Identifier: GPL-2.0-only
/* No <linux/...> include at all, as in coresight-trbe.c: the new
 * include goes before the first <asm/...> one. */
#include <asm/barrier.h>
#include <asm/cpufeature.h>

#include "include_asm.h"

struct foo {
	unsigned long __percpu *stats;
};

void foo_exit(struct foo *f)
{
	free_percpu(f->stats);
}
