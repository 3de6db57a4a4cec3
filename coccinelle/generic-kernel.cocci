// SPDX-License-Identifier: GPL-2.0-only
/// kernel: cpu_alloc: Convert the core kernel's per-cpu data to cpu_alloc
///
/// Allocate the dynamic per-cpu data of the core kernel with
/// CPU_ALLOC(), free it with CPU_FREE(), and address the instance of a
/// processor with CPU_PTR(), THIS_CPU() and __THIS_CPU() instead of
/// per_cpu_ptr(), this_cpu_ptr() and raw_cpu_ptr(): the interrupt
/// statistics and the interrupt matrix, the cross-call queues, the
/// workqueues, SRCU, percpu-rwsem, cgroup rstat, perf's contexts, the
/// breakpoint events, the BPF program statistics and the tick work.
/// alloc_percpu() always zeroed the area; CPU_ALLOC() is asked to with
/// __GFP_ZERO.
///
/// These objects already live in the cpu area since "mm/percpu:
/// cpu_alloc: serve alloc_percpu() from cpu_alloc"; the code does not
/// change what it computes.  On the paths that walk every processor,
/// such as the interrupt counts of /proc/interrupts and the SRCU
/// grace-period scans, CPU_PTR() computes each address instead of
/// loading __per_cpu_offset[cpu]: two instructions more per processor,
/// and no cache line of the offset table.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: kernel/smp.c kernel/workqueue.c kernel/bpf/core.c
// Files: kernel/cgroup/rstat.c kernel/events/core.c
// Files: kernel/events/hw_breakpoint.c kernel/irq/irqdesc.c
// Files: kernel/irq/matrix.c kernel/irq/proc.c
// Files: kernel/locking/percpu-rwsem.c kernel/rcu/srcutree.c
// Files: kernel/sched/core.c
//
// The files of kernel/ that name the API and that the boot config
// (qemu/cpu_alloc.config) compiles.  The others (tracing, most of BPF,
// the scheduler topology, padata, relay, kexec, cpuacct, psi) wait for
// a configuration that compiles them.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of kernel/', collected=True)
