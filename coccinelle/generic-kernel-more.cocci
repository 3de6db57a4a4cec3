// SPDX-License-Identifier: GPL-2.0-only
/// kernel: cpu_alloc: Convert tracing, BPF and the rest of kernel/ to cpu_alloc
///
/// Allocate the per-cpu data of the kernel/ files that the first
/// conversion of kernel/ left out with CPU_ALLOC(), free it with
/// CPU_FREE(), and address the instance of a processor with CPU_PTR(),
/// THIS_CPU() and __THIS_CPU() instead of per_cpu_ptr(),
/// this_cpu_ptr() and raw_cpu_ptr(): the tracing buffers and probes,
/// the BPF maps' LRU lists, free lists and memory caches, padata's
/// queues, relay channels, the scheduler domains' build data, cpuacct
/// and psi.  alloc_percpu() always zeroed the area; CPU_ALLOC() is
/// asked to with __GFP_ZERO.
///
/// An allocation whose size is not that of the type it is stored in
/// (the BPF maps' per-cpu values, whose size the user picks, the
/// crash notes) stays alloc_percpu() and its frees free_percpu(): since
/// alloc_percpu() is served by cpu_alloc, free_percpu() finds the size
/// of the object itself.  Its accessors become CPU_PTR() and
/// THIS_CPU() all the same: they address any object of the cpu area.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: kernel/bpf/bpf_lru_list.c kernel/bpf/devmap.c kernel/bpf/hashtab.c
// Files: kernel/bpf/memalloc.c kernel/bpf/percpu_freelist.c kernel/bpf/syscall.c
// Files: kernel/irq/timings.c kernel/kexec_core.c kernel/padata.c kernel/relay.c
// Files: kernel/sched/cpuacct.c kernel/sched/psi.c kernel/sched/topology.c
// Files: kernel/trace/blktrace.c kernel/trace/trace.c kernel/trace/trace_event_perf.c
// Files: kernel/trace/trace_events_filter.c kernel/trace/trace_functions.c
// Files: kernel/trace/trace_functions_graph.c kernel/trace/trace_kprobe.c
// Files: kernel/trace/trace_uprobe.c
//
// The kernel/ files that name the API and that the boot config does
// not compile: make check compiles them under allmodconfig.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of kernel/', collected=True)
