// SPDX-License-Identifier: GPL-2.0-only
/// net: cpu_alloc: Convert the network drivers to cpu_alloc
///
/// Allocate the per-cpu data of the network drivers with CPU_ALLOC(),
/// free it with CPU_FREE(), and address the instance of a processor
/// with CPU_PTR() and THIS_CPU() instead of per_cpu_ptr() and
/// this_cpu_ptr(): bonding's round-robin counter, team's load balancer
/// statistics, the MACsec SA counters, PPP's recursion guard,
/// WireGuard's per-cpu workers, iwlwifi's TSO header pages, and the
/// per-cpu queues and statistics of the cxgb, dpaa2, ixgbe (FCoE),
/// mvneta, mvpp2, octeontx2, forcedeth and rmnet drivers.
/// alloc_percpu() always zeroed the area; CPU_ALLOC() is asked to with
/// __GFP_ZERO.
///
/// Every device these drivers create allocates its own, so a machine
/// with many interfaces holds many; the sums over every processor
/// (the drivers' ethtool and debugfs statistics) compute each address
/// instead of loading __per_cpu_offset[cpu].
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: drivers/net/bonding/bond_main.c drivers/net/ethernet/chelsio/cxgb/sge.c
// Files: drivers/net/ethernet/freescale/dpaa2/dpaa2-eth.c
// Files: drivers/net/ethernet/freescale/dpaa2/dpaa2-eth-debugfs.c
// Files: drivers/net/ethernet/freescale/dpaa2/dpaa2-ethtool.c
// Files: drivers/net/ethernet/intel/ixgbe/ixgbe_fcoe.c drivers/net/ethernet/intel/ixgbe/ixgbe_main.c
// Files: drivers/net/ethernet/marvell/mvneta.c drivers/net/ethernet/marvell/mvpp2/mvpp2_main.c
// Files: drivers/net/ethernet/marvell/octeontx2/nic/cn10k.c
// Files: drivers/net/ethernet/marvell/octeontx2/nic/otx2_common.h
// Files: drivers/net/ethernet/marvell/octeontx2/nic/otx2_pf.c
// Files: drivers/net/ethernet/marvell/octeontx2/nic/otx2_vf.c
// Files: drivers/net/ethernet/nvidia/forcedeth.c drivers/net/ethernet/qualcomm/rmnet/rmnet_vnd.c
// Files: drivers/net/macsec.c drivers/net/ppp/ppp_generic.c drivers/net/team/team_mode_loadbalance.c
// Files: drivers/net/wireguard drivers/net/wireless/intel/iwlwifi/iwl-trans.c
// Files: drivers/net/wireless/intel/iwlwifi/queue/tx.c
//
// The drivers/net/ files that allocate with the alloc_percpu() family,
// and those that reach the same pointers.  The boot config builds none
// of them: make check compiles them under allmodconfig.  Left out: the
// statistics of netdev_alloc_pcpu_stats() (a macro of netdevice.h,
// converted with it), and libcxgb_ppm.c, whose pools are sized at run
// time.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of drivers/net/', collected=True)
