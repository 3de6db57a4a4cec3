// SPDX-License-Identifier: GPL-2.0-only
/// fs: cpu_alloc: Convert the aio and mount counters to cpu_alloc
///
/// Allocate the per-cpu request counters of an aio context
/// (kioctx->cpu) and the mount reference and writer counts
/// (mount->mnt_pcp) with CPU_ALLOC(), free them with CPU_FREE(), and
/// address the instance of a processor with CPU_PTR() and THIS_CPU()
/// instead of per_cpu_ptr() and this_cpu_ptr().  alloc_percpu() always
/// zeroed the area; CPU_ALLOC() is asked to with __GFP_ZERO.
///
/// mnt_get_count() and mnt_get_writers() sum over every processor on
/// each umount and remount read-only.  There CPU_PTR() computes each
/// address instead of loading __per_cpu_offset[cpu]: two instructions
/// more per processor, and no cache line of the offset table.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: fs/aio.c fs/namespace.c
//
// fs/ files that the boot config compiles (NFS was converted on its
// own).  Not yet: ext4, gfs2, squashfs and xfs.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of fs/', collected=True)
