// SPDX-License-Identifier: GPL-2.0-only
/// demo: cpu_alloc: the conversion of tests/cocci.sh's collect case
///
/// Targets found from their allocations (configure(collected=True)).
//
// Confidence: High
// Options: --no-includes --include-headers --macro-file lib/macros.h
// Targets: collected

virtual patch
virtual context
virtual report

#include "lib/cpu_alloc.cocci"

@initialize:python@
@@
configure(subject='the demo', collected=True)
