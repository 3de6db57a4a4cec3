// SPDX-License-Identifier: GPL-2.0-only
/// NFS: cpu_alloc: Convert the I/O statistics to cpu_alloc
///
/// Allocate the per-cpu nfs_iostats of a mounted server with
/// CPU_ALLOC() in nfs_alloc_iostats(), free them with CPU_FREE() in
/// nfs_free_iostats(), and fold them with CPU_PTR() instead of
/// per_cpu_ptr() in nfs_show_stats().  alloc_percpu() always zeroed
/// the area; CPU_ALLOC() is asked to with __GFP_ZERO.  The counters
/// are still bumped with this_cpu_inc() and this_cpu_add().
//
// Confidence: High
// Options: --no-includes --include-headers
// Files: fs/nfs/iostat.h fs/nfs/super.c fs/nfs/client.c
//
// nfs_server->io_stats is set only from nfs_alloc_iostats() and freed
// only through nfs_free_iostats(stats).

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='nfs_server->io_stats',
          target=r'->\s*io_stats$',
          vars={('nfs_free_iostats', 'stats')},
          alloc_funcs={'nfs_alloc_iostats'})
