// SPDX-License-Identifier: GPL-2.0-only
/// crypto: cpu_alloc: Convert cryptd's queues to cpu_alloc
///
/// Allocate the per-cpu request queues of cryptd with CPU_ALLOC(), free
/// them with CPU_FREE(), and address the instance of a processor with
/// CPU_PTR() and THIS_CPU() instead of per_cpu_ptr() and
/// this_cpu_ptr().  alloc_percpu() always zeroed the area; CPU_ALLOC()
/// is asked to with __GFP_ZERO.
///
/// The queues are allocated once, when the cryptd module loads, and
/// each request is queued on the running processor's queue.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: crypto/cryptd.c
//
// The one file of crypto/ that allocates with the alloc_percpu()
// family.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of crypto/', collected=True)
