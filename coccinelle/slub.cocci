// SPDX-License-Identifier: GPL-2.0-only
/// slub: cpu_alloc: Convert kmem_cache->cpu_slab to cpu_alloc
///
/// Allocate the per-cpu kmem_cache_cpu structure of every slab cache
/// with cpu_alloc() instead of __alloc_percpu(), free it with
/// CPU_FREE(), and address the instance of a processor with CPU_PTR(),
/// THIS_CPU() and __THIS_CPU() instead of per_cpu_ptr(),
/// this_cpu_ptr() and raw_cpu_ptr().
///
/// The double word alignment that this_cpu_cmpxchg_double() needs is
/// still passed to the allocator.  __alloc_percpu() always zeroed the
/// area; cpu_alloc() zeroes only on request, so __GFP_ZERO is passed.
/// The this_cpu_*() and local_lock() operations on s->cpu_slab stay as
/// they are: memory from cpu_alloc() is reached through the per-cpu
/// segment at the same displacement on every processor, so the
/// lockless fast path is unchanged.  Only s->cpu_slab and addresses
/// derived from it are rewritten; the generic slub_get_cpu_ptr()
/// wrapper is left as it is.
//
// Confidence: High
// Options: --no-includes --include-headers
// Files: mm/slub.c include/linux/slub_def.h
//
// kmem_cache->cpu_slab is only ever set from the allocation (never to
// static per-cpu data), and the allocation is sizeof(struct
// kmem_cache_cpu), the type the field points to: CPU_FREE() is exact.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='kmem_cache->cpu_slab',
          target=r'->\s*cpu_slab$')
