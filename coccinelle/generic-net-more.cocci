// SPDX-License-Identifier: GPL-2.0-only
/// net: cpu_alloc: Convert netfilter, tc and the other protocols to cpu_alloc
///
/// Allocate the per-cpu data of the network code that the boot config
/// does not build with CPU_ALLOC(), free it with CPU_FREE(), and
/// address the instance of a processor with CPU_PTR() and THIS_CPU()
/// instead of per_cpu_ptr() and this_cpu_ptr(): the conntrack,
/// flowtable, synproxy and IPVS statistics, the nftables counters and
/// set scratch maps, the tc actions' queue statistics, Open vSwitch's
/// action queues, and the counters of caif, SMC, TIPC, MPLS, mac80211,
/// packet sockets, RDS, SRv6 HMAC and IPcomp.  alloc_percpu() always
/// zeroed the area; CPU_ALLOC() is asked to with __GFP_ZERO.
///
/// An allocation whose size is not that of the type it is stored in
/// (x_tables' counter blocks, Open vSwitch's mask caches, batman-adv's
/// counters) stays alloc_percpu() and its frees free_percpu(): since
/// alloc_percpu() is served by cpu_alloc, free_percpu() finds the size
/// of the object itself.  Its accessors become CPU_PTR() and
/// THIS_CPU() all the same: they address any object of the cpu area.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: net/netfilter net/openvswitch net/caif net/smc net/mpls net/packet
// Files: net/batman-adv/soft-interface.c net/ipv6/seg6_hmac.c net/mac80211/sta_info.c
// Files: net/mac80211/rx.c net/rds/ib_recv.c net/tipc/crypto.c net/xfrm/xfrm_ipcomp.c
// Files: net/sched/act_api.c
//
// The net/ files that name the API and that the boot config does not
// compile (make check compiles them under allmodconfig), but for those
// whose hunks would not apply to the older 6.1.y trees (make am-check,
// git am -3 onto 6.1.187): net/sched/sch_generic.c (its free of
// cpu_qstats moved from qdisc_free() to qdisc_free_cb() between 6.1.187
// and 6.1.192), the classifiers net/sched/cls_basic.c, cls_matchall.c
// and cls_u32.c, and net/can/raw.c.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of net/', collected=True)
