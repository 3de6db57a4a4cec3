// SPDX-License-Identifier: GPL-2.0-only
/// net: page_pool: cpu_alloc: Convert the recycle statistics to cpu_alloc
///
/// Allocate the per-cpu recycle statistics of a page pool with
/// CPU_ALLOC(), free them with CPU_FREE(), and address the instance of
/// a processor with CPU_PTR() instead of per_cpu_ptr().  alloc_percpu()
/// always zeroed the area; CPU_ALLOC() is asked to with __GFP_ZERO.
///
/// A driver creates a page pool per receive queue, so a machine with
/// many queues holds many of them; page_pool_get_stats() sums them over
/// every processor, and there CPU_PTR() computes each address instead
/// of loading __per_cpu_offset[cpu].
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: net/core/page_pool.c
//
// Compiled with CONFIG_PAGE_POOL_STATS, which the wide compile of make
// check enables.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of net/core/page_pool.c', collected=True)
