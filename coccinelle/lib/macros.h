/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Macros that spatch cannot parse from their use alone, for the
 * "// Options: --macro-file lib/macros.h" of a conversion (spatch runs
 * from coccinelle/).  The CPU iterators: without these, the body
 * "*per_cpu_ptr(p, cpu) = v;" of "for_each_possible_cpu(cpu)" is read
 * as a multiplication, and the whole function is skipped.
 */
#define for_each_possible_cpu(cpu) for (;;)
#define for_each_online_cpu(cpu) for (;;)
#define for_each_present_cpu(cpu) for (;;)
#define for_each_cpu(cpu, mask) for (;;)
#define for_each_cpu_and(cpu, mask1, mask2) for (;;)
#define for_each_cpu_not(cpu, mask) for (;;)
