// SPDX-License-Identifier: GPL-2.0-only
/// drivers: cpu_alloc: Convert ARM timers, irqchips, PMUs and tracing
///
/// Allocate the per-cpu data of the clock event drivers (ARM architected
/// timer, Hyper-V stimer, J-Core PIT), the GIC interrupt controller,
/// the ARM PMU and SPE, SDEI's registered events,
/// CoreSight's ETM paths and TRBE, and the DPAA2 CAAM queues with
/// CPU_ALLOC(), free it with CPU_FREE(), and address the instance of a
/// processor with CPU_PTR() and THIS_CPU() instead of per_cpu_ptr() and
/// this_cpu_ptr().  alloc_percpu() always zeroed the area; CPU_ALLOC()
/// is asked to with __GFP_ZERO.
///
/// Most of these drivers are arm64's.  CPU_ALLOC is x86_64's, so there
/// the macros are the alloc_percpu() family under other names, and the
/// code compiles to what it was; make check compiles the files under
/// arm64 allmodconfig with Debian's cross compiler, and under x86_64
/// allmodconfig where COMPILE_TEST reaches them.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: drivers/clocksource/arm_arch_timer.c drivers/clocksource/hyperv_timer.c
// Files: drivers/clocksource/jcore-pit.c drivers/crypto/caam/caamalg_qi2.c
// Files: drivers/firmware/arm_sdei.c drivers/hwtracing/coresight/coresight-etm-perf.c
// Files: drivers/hwtracing/coresight/coresight-trbe.c drivers/irqchip/irq-gic.c
// Files: drivers/perf/arm_pmu.c drivers/perf/arm_spe_pmu.c
//
// The drivers that arm64 or x86_64 allmodconfig builds.  Left: the
// timers of 32-bit ARM (arm_global_timer, timer-armada-370-xp,
// timer-qcom) and knav_qmss_queue (ARCH_KEYSTONE), which no
// configuration of make check builds, and riscv_pmu.  irq-gic's saved
// PPI state is allocated by size, not type: its allocation and free
// stay.  irq-gic-v3.c reaches its redistributors through a macro,
// gic_data_rdist(), whose this_cpu_ptr() spatch cannot rewrite in
// place ("try to delete an expanded token"): a commit by hand.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of the ARM drivers', collected=True)
