// SPDX-License-Identifier: GPL-2.0-only
/// lib: cpu_alloc: Convert percpu_counter and sbitmap to cpu_alloc
///
/// Allocate percpu_counter->counters and sbitmap->alloc_hint with
/// CPU_ALLOC(), free them with CPU_FREE(), and address the instance of
/// a processor with CPU_PTR() instead of per_cpu_ptr().  alloc_percpu()
/// always zeroed the area; CPU_ALLOC() is asked to with __GFP_ZERO.
///
/// Since "mm/percpu: cpu_alloc: serve alloc_percpu() from cpu_alloc"
/// both already live in the cpu area; this moves their users to the
/// API, as the 2007 series moved every user before it removed the old
/// interface.  The this_cpu_*() operations on the counters stay.
///
/// Two allocations of lib/ stay as they are: percpu_ref keeps its
/// pointer in an unsigned long together with flag bits, and
/// test_vmalloc allocates computed sizes.  CPU_FREE() frees the size
/// of the pointed-to type, so both need cpu_free() with their size, by
/// hand.  include/linux/sbitmap.h keeps the free_percpu() of
/// sbitmap_free(): free_percpu() frees cpu_alloc objects of any size,
/// and converting the header would recompile every user of blk-mq.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: lib
//
// The targets are found by the collect pass (see lib/cpu_alloc.cocci):
// what the allocations of these files are stored in.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of lib/', collected=True)
