// SPDX-License-Identifier: GPL-2.0-only
/// dmaengine: cpu_alloc: Convert the channel and table data to cpu_alloc
///
/// Allocate the per-cpu statistics of a channel (chan->local) and the
/// per-cpu channel_table[] entries of each capability with CPU_ALLOC(),
/// free them with CPU_FREE(), and address the instance of a processor
/// with CPU_PTR() instead of per_cpu_ptr().  alloc_percpu() always
/// zeroed the area; CPU_ALLOC() is asked to with __GFP_ZERO.
/// dma_find_channel() still reads the table with this_cpu_read().
//
// Confidence: High
// Options: --no-includes --include-headers
// Files: drivers/dma/dmaengine.c include/linux/dmaengine.h
//
// chan->local is set and freed only in drivers/dma/dmaengine.c (no
// driver touches it: git grep -w local drivers/dma); "local" is a
// common field name, so keep Files narrow.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='dma_chan->local/channel_table[]',
          target=r'(->\s*local|^channel_table\s*\[.*\])$')
