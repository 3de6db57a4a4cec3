// SPDX-License-Identifier: GPL-2.0-only
/// fs: cpu_alloc: Convert ext4, gfs2, squashfs and xfs to cpu_alloc
///
/// Allocate the per-cpu data of ext4 (the locality groups of the block
/// allocator), gfs2 (the lock statistics), squashfs (the per-cpu
/// decompressor streams) and xfs (the CIL's per-cpu contexts, the
/// inode garbage collection queues and the statistics) with
/// CPU_ALLOC(), free it with CPU_FREE(), and address the instance of a
/// processor with CPU_PTR() and THIS_CPU() instead of per_cpu_ptr()
/// and this_cpu_ptr().  alloc_percpu() always zeroed the area;
/// CPU_ALLOC() is asked to with __GFP_ZERO.
///
/// Each mount of these file systems allocates its own; the sums over
/// every processor (the xfs statistics in sysfs and /proc, the CIL
/// push) compute each address instead of loading
/// __per_cpu_offset[cpu].
///
/// xfs keeps its inode garbage collection queues (m_inodegc) and the
/// CIL's contexts (xc_pcp) in void __percpu pointers, and CPU_FREE()
/// takes the size from the pointer's type: their allocations and frees
/// stay alloc_percpu() and free_percpu(), which finds the size of the
/// object itself; their accessors become CPU_PTR() all the same.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: fs/ext4/mballoc.c fs/gfs2/glock.c fs/gfs2/lock_dlm.c fs/gfs2/ops_fstype.c
// Files: fs/gfs2/rgrp.c fs/squashfs/decompressor_multi_percpu.c fs/xfs/xfs_icache.c
// Files: fs/xfs/xfs_log_cil.c fs/xfs/xfs_mount.c fs/xfs/xfs_stats.c fs/xfs/xfs_stats.h
// Files: fs/xfs/xfs_super.c fs/xfs/xfs_sysctl.c fs/xfs/xfs_sysfs.c
//
// The fs/ files that name the API and that the boot config does not
// compile (make check compiles them under allmodconfig), and the files
// that reach the same objects.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of fs/', collected=True,
          untyped=('m_inodegc', 'xc_pcp'))
