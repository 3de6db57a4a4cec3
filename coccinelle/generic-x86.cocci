// SPDX-License-Identifier: GPL-2.0-only
/// x86: cpu_alloc: Convert AMD IBS, Hyper-V, C-states, KVM and MSR helpers to cpu_alloc
///
/// Allocate the per-cpu data of arch/x86 with CPU_ALLOC(), free it with
/// CPU_FREE(), and address the instance of a processor with CPU_PTR()
/// and THIS_CPU() instead of per_cpu_ptr() and this_cpu_ptr(): the AMD
/// IBS PMU contexts, Hyper-V's GHCB page pointers, the ACPI
/// C-state entries, KVM's user-return MSR state and the buffers of
/// msrs_alloc().  alloc_percpu() always zeroed the area; CPU_ALLOC() is
/// asked to with __GFP_ZERO.
///
/// These are allocated once, at boot or when a module loads; KVM reads
/// its MSR state on every return to user space, and the walks over
/// every processor compute each address instead of loading
/// __per_cpu_offset[cpu].
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: arch/x86/events/amd/ibs.c
// Files: arch/x86/hyperv/hv_init.c arch/x86/hyperv/ivm.c
// Files: arch/x86/kernel/acpi/cstate.c arch/x86/kvm/x86.c arch/x86/lib/msr.c
//
// The arch/x86 files that allocate with the alloc_percpu() family, and
// those that reach the same pointers.  The boot config builds some of
// them; make check compiles the rest under allmodconfig.  The users of
// msrs_alloc() in drivers/edac keep per_cpu_ptr(), which addresses any
// object of the cpu area.  Left out: arch/x86/events/amd/uncore.c,
// which Debian's base has from a later stable release (its hunks fail
// git am -3 onto 6.1.187: make am-check).

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of arch/x86/', collected=True)
