// SPDX-License-Identifier: GPL-2.0-only
/// arm64: cpu_alloc: Convert KVM's last-run vCPU map to cpu_alloc
///
/// Allocate the per-cpu record of the vCPU that last ran on each
/// processor for a stage-2 MMU with CPU_ALLOC(), free it with
/// CPU_FREE(), and address the instance of a processor with CPU_PTR()
/// and THIS_CPU() instead of per_cpu_ptr() and this_cpu_ptr().
/// alloc_percpu() always zeroed the area; CPU_ALLOC() is asked to with
/// __GFP_ZERO.
///
/// CPU_ALLOC is x86_64's, so on arm64 the macros are the alloc_percpu()
/// family under other names and the code compiles to what it was; make
/// check compiles both files under arm64 allmodconfig with Debian's
/// cross compiler.
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected
// Files: arch/arm64/kvm/arm.c arch/arm64/kvm/mmu.c
//
// Left in arch/arm64: the SVE state that EFI runtime services save
// (kernel/fpsimd.c), whose size is computed at boot from the largest
// vector length: CPU_FREE() frees the size of the pointed-to type.

virtual patch
virtual context
virtual report

// The rules: lib/cpu_alloc.cocci (run spatch from coccinelle/).
#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the allocations of arch/arm64/', collected=True)
