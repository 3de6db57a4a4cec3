// SPDX-License-Identifier: GPL-2.0-only
/// mm: cpu_alloc: Convert swap clusters and zswap's compressors
///
/// Allocate the per-cpu cluster and scan base of a swap device and
/// zswap's per-cpu compression contexts with CPU_ALLOC(), free them
/// with CPU_FREE(), and address the instance of a processor with
/// CPU_PTR() and THIS_CPU() instead of per_cpu_ptr() and
/// this_cpu_ptr().  alloc_percpu() always zeroed the area; CPU_ALLOC()
/// is asked to with __GFP_ZERO.
///
/// Both are allocated once, at swapon and when a zswap pool is created,
/// and read on every swap-out: the cluster of the running processor,
/// the compressor of the running processor.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: mm/swapfile.c mm/zswap.c
//
// mm/ files that only the wide compile of make check builds.  Not
// yet: slab.c and z3fold.c, whose sizes are computed at run time, and
// the node statistics of page_alloc.c (see generic-mm.cocci).

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of mm/', collected=True)
