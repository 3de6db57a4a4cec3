// SPDX-License-Identifier: GPL-2.0-only
/// block: cpu_alloc: Convert the disk statistics to cpu_alloc
///
/// Allocate block_device->bd_stats with CPU_ALLOC(), free it with
/// CPU_FREE(), and address the statistics of a processor with CPU_PTR()
/// instead of per_cpu_ptr(), in the block core and in the accessors of
/// <linux/part_stat.h>.  alloc_percpu() always zeroed the area;
/// CPU_ALLOC() is asked to with __GFP_ZERO.
///
/// The part_stat_*() macros that update a counter with
/// __this_cpu_add() stay as they are, and so do their callers all over
/// the tree: they only ever reach bd_stats through the macros.
//
// Confidence: High
// Options: --no-includes --include-headers
// Files: block/bdev.c block/genhd.c block/blk-cgroup.c
// Files: include/linux/part_stat.h
//
// These are all the files of the base that name bd_stats (git grep -w
// bd_stats), but include/linux/blk_types.h, which only declares it.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='block_device->bd_stats',
          target=r'->\s*bd_stats$')
