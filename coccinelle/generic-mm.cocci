// SPDX-License-Identifier: GPL-2.0-only
/// mm: cpu_alloc: Convert the memcg and shmem per-cpu data to cpu_alloc
///
/// Allocate the memory cgroup statistics (memcg->vmstats_percpu,
/// pn->lruvec_stats_percpu) and the shmem inode number batches with
/// CPU_ALLOC(), free them with CPU_FREE(), and address the instance of
/// a processor with CPU_PTR() and THIS_CPU() instead of per_cpu_ptr()
/// and this_cpu_ptr().  alloc_percpu() always zeroed the area;
/// CPU_ALLOC() is asked to with __GFP_ZERO.
///
/// The memcg statistics are flushed by walking every processor of every
/// cgroup.  There CPU_PTR() computes each address instead of loading
/// __per_cpu_offset[cpu]: two instructions more per processor, and no
/// cache line of the offset table.  The this_cpu_*() updates and the
/// accessors of <linux/memcontrol.h> stay, so that no widely included
/// header changes.
///
/// The node statistics (pgdat->per_cpu_nodestats, in page_alloc.c and
/// vmstat.c) stay too: the hunks in free_area_init_core_hotplug() do
/// not apply to older 6.1.y trees, which the series is kept applicable
/// to; they need a hand-made commit.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: mm/memcontrol.c mm/shmem.c
//
// mm/ files that the boot config compiles, without the allocator
// itself (mm/percpu*.c, mm/cpu_alloc*.c) and the node statistics (see
// above).  Not yet: slab.c, swapfile.c, zswap.c and z3fold.c, which the
// boot config does not compile.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of mm/', collected=True)
