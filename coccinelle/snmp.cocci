// SPDX-License-Identifier: GPL-2.0-only
/// net: cpu_alloc: Convert the SNMP MIBs to cpu_alloc
///
/// Allocate the per-cpu SNMP MIBs with CPU_ALLOC(), free them with
/// CPU_FREE(), and address the counters of a processor with CPU_PTR()
/// and __THIS_CPU() instead of per_cpu_ptr() and raw_cpu_ptr().
///
/// The MIBs share helpers: snmp_get_cpu_field() and
/// snmp_get_cpu_field64() fold any MIB, and the 64-bit counter macros
/// of <net/snmp.h> on 32-bit kernels update any MIB through
/// raw_cpu_ptr().  Those helpers can only move to cpu_alloc together
/// with every MIB that reaches them, so this converts all of them at
/// once: the per-netns MIBs of IPv4 (ip, tcp, net, udp, udplite,
/// icmp), IPv6 (ipv6, udp6, udplite6, icmpv6), XFRM, TLS and MPTCP,
/// the per-device IPv6 statistics (inet6_dev->stats.ipv6), the SCTP
/// MIB and the global DCCP MIB.  The ICMP message MIBs are atomic
/// counters allocated with kzalloc() and are not touched.
///
/// alloc_percpu() always zeroed the area; CPU_ALLOC() is asked to with
/// __GFP_ZERO.  The SNMP_INC_STATS() family keeps using this_cpu_*().
//
// Confidence: High
// Options: --no-includes --include-headers
// Files: include/net/snmp.h include/net/ip.h
// Files: net/ipv4/af_inet.c net/ipv6/af_inet6.c net/ipv6/addrconf.c
// Files: net/ipv6/addrconf_core.c net/sctp/protocol.c net/dccp/proto.c
// Files: net/mptcp/mib.c net/tls/tls_main.c net/xfrm/xfrm_policy.c
//
// Callers of the helpers (they need no change): net/ipv4/proc.c,
// net/ipv6/proc.c, net/ipv6/addrconf.c, net/sctp/proc.c,
// net/mptcp/mib.c, net/tls/tls_proc.c, net/xfrm/xfrm_proc.c.  Every
// one passes a MIB of TARGET below (git grep snmp_get_cpu_field and
// snmp_fold_field to check after a rebase).

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
# The shared helpers, by function; in a macro body (where spatch knows
# no function) by file: the 32-bit __SNMP_ADD_STATS64() and
# __SNMP_UPD_PO_STATS64() of include/net/snmp.h.
configure(subject='the SNMP MIBs',
          target=(r'(\bmib\s*\.\s*((ip|ipv6|tcp|net|udp|udplite|xfrm|tls|mptcp|icmp|icmpv6)_statistics|(udp|udplite)_stats_in6)'
                  r'|\bstats\s*\.\s*ipv6|\bsctp\s*\.\s*sctp_statistics|^dccp_statistics)$'),
          vars={('snmp_get_cpu_field', 'mib'), ('snmp_get_cpu_field64', 'mib'),
                ('include/net/snmp.h', 'mib'), ('mptcp_mib_alloc', 'mib')})
