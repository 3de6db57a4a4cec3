// SPDX-License-Identifier: GPL-2.0-only
/// block: cpu_alloc: Convert bio caches, blk-mq and blkcg stats
///
/// Allocate the bio caches of a bio_set, the software queue contexts of
/// blk-mq and the per-cpu I/O statistics of a block cgroup with
/// CPU_ALLOC(), free them with CPU_FREE(), and address the instance of
/// a processor with CPU_PTR() and THIS_CPU() instead of per_cpu_ptr()
/// and this_cpu_ptr().  alloc_percpu() always zeroed the area;
/// CPU_ALLOC() is asked to with __GFP_ZERO.
///
/// blk-stat allocates one bucket array per callback, of a size computed
/// at run time.  CPU_FREE() frees the size of the pointed-to type, so
/// its allocation and free stay as they are; only its accessors move to
/// CPU_PTR().  __blk_mq_get_ctx() in block/blk-mq.h keeps
/// per_cpu_ptr(), which gives the same address: that header includes
/// no <linux/...> header for <linux/cpu_alloc.h> to follow.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: block/bio.c block/blk-cgroup.c block/blk-mq.c
// Files: block/blk-mq-sysfs.c block/blk-stat.c
//
// block/ files that the boot config compiles, but block/blk-mq.h (see
// above).  Not yet: blk-iocost,
// blk-iolatency, blk-throttle and kyber, which it does not compile.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of block/', collected=True)
