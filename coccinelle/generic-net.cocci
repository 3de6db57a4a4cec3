// SPDX-License-Identifier: GPL-2.0-only
/// net: cpu_alloc: Convert the core network stack's per-cpu data to cpu_alloc
///
/// Allocate the per-cpu data of the core network stack (the dst and
/// route caches, the neighbour table and fib statistics, the
/// per-device refcounts, the GRO cells and the sock protocol in-use
/// counts) with CPU_ALLOC(), free it with CPU_FREE() where these files
/// free it under the name it was stored in, and address the instance
/// of a processor with CPU_PTR() and THIS_CPU() instead of
/// per_cpu_ptr() and this_cpu_ptr().  alloc_percpu() always zeroed the
/// area; CPU_ALLOC() is asked to with __GFP_ZERO.
///
/// Every network namespace allocates its protocol in-use counts and,
/// with PCPU_DEV_REFCNT (the default), its loopback device's
/// refcounts; every route its output caches.
///
/// A free or an accessor that reaches an object under another name, or
/// through a function's argument, stays as it is: free_netdev() frees
/// dev->core_stats, which netdev_core_stats_alloc() allocates into a
/// local first, and rt_fibinfo_free_cpus() frees its argument.  Since
/// alloc_percpu() is served by cpu_alloc, free_percpu() takes such an
/// object and finds its size.
///
/// The SNMP MIBs were converted on their own.  What one of these files
/// allocates and another one reads is converted in both, as the targets
/// are collected over all of them first.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: net/core/dev.c net/core/dst.c net/core/dst_cache.c net/core/gro_cells.c net/core/neighbour.c net/core/sock.c net/ipv4/fib_semantics.c net/ipv4/fib_trie.c net/ipv4/route.c net/ipv6/route.c
//
// net/ files that the boot config compiles.  It builds and boots
// neither dev->pcpu_refcnt (PCPU_DEV_REFCNT), nor the fib_trie
// statistics (IP_FIB_TRIE_STATS), nor ip_rt_acct (IP_ROUTE_CLASSID).
// Not yet: the drivers' and tunnels' device statistics
// (netdev_alloc_pcpu_stats() and its kin in include/linux/netdevice.h,
// which the collect pass does not follow), the protocols the boot
// config does not build, and the qdisc statistics of
// net/sched/sch_generic.c: its free of cpu_qstats moved from
// qdisc_free() to qdisc_free_cb() after 6.1.187, and the hunk does not
// apply there even with git am -3 (make am-check).

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of the core network stack', collected=True)
