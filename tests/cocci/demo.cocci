// SPDX-License-Identifier: GPL-2.0-only
/// demo: cpu_alloc: Convert foo->stats to cpu_alloc
///
/// The conversion of the selftest (tests/cocci.sh): a struct field
/// (TARGET), a parameter (VARS), a macro body of a header (VARS by
/// file) and an allocating function (ALLOC_FUNCS).
//
// Confidence: High
// Options: --no-includes --include-headers
//
// tests/cocci.sh runs it on the files of each tests/cocci/*/ and
// compares the result with the expected.patch there.

virtual patch
virtual context
virtual report

#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='foo->stats',
          target=r'->\s*stats$',
          vars={('foo_free_stats', 'st'), ('demo.h', 'm')},
          alloc_funcs={'foo_alloc_stats'})
