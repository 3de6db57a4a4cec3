// SPDX-License-Identifier: GPL-2.0-only
/// drivers: cpu_alloc: Convert block, md, SCSI, InfiniBand and platform drivers to cpu_alloc
///
/// Allocate the per-cpu data of the drivers outside drivers/net/ with
/// CPU_ALLOC(), free it with CPU_FREE(), and address the instance of a
/// processor with CPU_PTR() and THIS_CPU() instead of per_cpu_ptr() and
/// this_cpu_ptr(): zram's compression streams, rnbd's queues, the
/// device mapper's statistics and in-flight counters, raid5's stripe
/// buffers, the hpsa and lpfc counters, the hfi1, qib and rtrs
/// statistics, the IOMMU flush queues and IOVA caches, Hyper-V's
/// per-cpu contexts, ACPI cpufreq and idle state data, the SPI
/// statistics and intel_powerclamp's workers.  alloc_percpu() always
/// zeroed the area; CPU_ALLOC() is asked to with __GFP_ZERO.
///
/// An allocation whose size is not that of the type it is stored in
/// stays alloc_percpu() and its frees free_percpu(): since
/// alloc_percpu() is served by cpu_alloc, free_percpu() finds the size
/// of the object itself.  Its accessors become CPU_PTR() and
/// THIS_CPU() all the same: they address any object of the cpu area.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: drivers/block/rnbd/rnbd-clt.c drivers/block/zram/zcomp.c
// Files: drivers/cpufreq/acpi-cpufreq.c drivers/cpufreq/pcc-cpufreq.c
// Files: drivers/cpuidle/cpuidle-haltpoll.c drivers/idle/intel_idle.c
// Files: drivers/hv drivers/infiniband/hw/hfi1 drivers/infiniband/hw/qib
// Files: drivers/infiniband/ulp/rtrs drivers/iommu/dma-iommu.c drivers/iommu/iova.c
// Files: drivers/md/dm-stats.c drivers/md/dm.c drivers/md/raid5.c
// Files: drivers/scsi/hpsa.c drivers/scsi/lpfc drivers/spi/spi.c
// Files: drivers/thermal/intel/intel_powerclamp.c drivers/xen/xen-acpi-processor.c
//
// The drivers/ files outside drivers/net/ that allocate with the
// alloc_percpu() family and that x86_64 builds, and those that reach
// the same pointers.  The boot config builds few of them: make check
// compiles them under allmodconfig.  Left out: the ARM and RISC-V
// interrupt controllers, timers, PMUs and tracing (irqchip,
// clocksource, perf, hwtracing), which want a cross compiler;
// devres.c's devm_alloc_percpu(), whose size its callers pick; libfc,
// whose statistics every FCoE driver reaches.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of drivers/', collected=True)
