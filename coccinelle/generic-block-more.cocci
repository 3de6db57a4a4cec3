// SPDX-License-Identifier: GPL-2.0-only
/// block: cpu_alloc: Convert kyber's latency histograms to cpu_alloc
///
/// Allocate the per-cpu latency histograms of the kyber I/O scheduler
/// with CPU_ALLOC(), free them with CPU_FREE(), and address the
/// instance of a processor with CPU_PTR() instead of per_cpu_ptr().
/// alloc_percpu_gfp() always zeroed the area; CPU_ALLOC() is asked to
/// with __GFP_ZERO.
///
/// A histogram is allocated when a queue switches to kyber, updated on
/// every completion and flushed by a timer that walks every processor:
/// there CPU_PTR() computes each address instead of loading
/// __per_cpu_offset[cpu].
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: block/kyber-iosched.c
//
// Not yet: blk-iocost and blk-iolatency, whose hunks fail git am -3
// onto 6.1.187 (make am-check).  blk-throttle's and blk-stat's
// buckets, whose sizes are computed at run time, are converted by hand
// (0064).

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of block/', collected=True)
