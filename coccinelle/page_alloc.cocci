// SPDX-License-Identifier: GPL-2.0-only
/// mm/page_alloc: cpu_alloc: Convert the zone pagesets to cpu_alloc
///
/// Allocate zone->per_cpu_pageset and zone->per_cpu_zonestats with
/// CPU_ALLOC(), free them with CPU_FREE(), and address the instance of
/// a processor with CPU_PTR() and THIS_CPU() instead of per_cpu_ptr()
/// and this_cpu_ptr(), in the page allocator and in vmstat.
/// alloc_percpu() always zeroed the area; CPU_ALLOC() is asked to with
/// __GFP_ZERO.
///
/// Until setup_per_cpu_pageset() runs, and again after
/// zone_pcp_reset(), a zone points at the static per-cpu boot_pageset
/// and boot_zonestats.  The fields therefore hold either kind of
/// pointer.  That is sound: the static per-cpu data and the cpu_alloc
/// area lie in the same per-processor slot, so CPU_PTR() and
/// per_cpu_ptr() compute the same address for both.  The only frees,
/// in zone_pcp_reset(), are already skipped for the boot pagesets, so
/// static data never reaches cpu_free().  The boot pagesets themselves
/// (per_cpu() of DEFINE_PER_CPU data) and the this_cpu_*() operations
/// are not touched; neither are pgdat->per_cpu_nodestats and the
/// generic pcpu_spin_*() wrappers.
///
/// zone_page_state_snapshot() in <linux/vmstat.h> keeps per_cpu_ptr(),
/// which gives the same address for a cpu_alloc pointer.  Converting it
/// would make the header, which nearly every object includes, include
/// <linux/cpu_alloc.h>, and each later change to that header would
/// compile the whole kernel again.
//
// Confidence: High
// Options: --no-includes --include-headers
// Files: mm/page_alloc.c mm/vmstat.c
// Files: include/linux/mmzone.h

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='zone->per_cpu_pageset/per_cpu_zonestats',
          target=r'->\s*per_cpu_(pageset|zonestats)$')
