// SPDX-License-Identifier: GPL-2.0-only
// The shared engine of the cpu_alloc conversions: a conversion's .cocci
// is its header, "virtual patch/context/report", the line
//
//   #include "lib/cpu_alloc.cocci"
//
// and an @initialize:python@ rule that calls configure() (see
// lib/cpu_alloc.py: what a target is, and the helpers these rules call).
// spatch 1.1.1 looks for an included semantic patch in the current
// directory only: run spatch from coccinelle/.  The included rules come
// first, so this @initialize:python@ runs before the conversion's.

virtual patch
virtual context
virtual report
virtual collect

@initialize:python@
@@
import os, sys
# lib/cpu_alloc.py is found where spatch found this file: from the
# current directory (spatch 1.1.1), else next to the --sp-file.
for d in (os.getcwd(), os.path.dirname(os.path.abspath(cocci.cocci_file))):
    if os.path.isfile(os.path.join(d, "lib", "cpu_alloc.py")):
        sys.path.insert(0, os.path.join(d, "lib"))
        break
sys.dont_write_bytecode = True
from cpu_alloc import *

// ---------------------------------------------------------------------
// collect: find the targets from their allocations, for a conversion
// that calls configure(collected=True).  Run once per file with
// "-D collect"; each run appends what it found to the file that
// $CPU_ALLOC_TARGETS names, which the patch mode then reads.  A target
// is what an allocation is stored in: a member (by name), a global or a
// local variable, or a member that such a local is stored in.
// ---------------------------------------------------------------------

@col_local depends on collect@
local idexpression x;
expression I;
expression E : script:python() { is_alloc(E) };
position p;
@@
(
x = E@p
|
x[I] = E@p
)

@script:python@
p << col_local.p;
@@
local_alloc(p)

@col_asg depends on collect@
expression X;
expression E : script:python() { is_alloc(E) };
position p;
@@
X = E@p

@script:python@
x << col_asg.X;
e << col_asg.E;
p << col_asg.p;
@@
collect_alloc(x, e, p)

@col_decl depends on collect@
identifier x;
type T;
expression E : script:python() { is_alloc(E) };
position p;
@@
T x = E@p;

@script:python@
x << col_decl.x;
e << col_decl.E;
p << col_decl.p;
@@
local_alloc(p)
collect_alloc(x, e, p)

@col_store depends on collect@
expression X;
local idexpression v;
position p;
@@
X = v@p

@script:python@
x << col_store.X;
v << col_store.v;
p << col_store.p;
@@
collect_store(x, v, p)

@finalize:python@
@@
write_collected()

// ---------------------------------------------------------------------
// Follow targets into local variables.
// ---------------------------------------------------------------------

@follow@
local idexpression x;
expression X;
position p : script:python(X) { is_tgt(X, p) };
@@
x = X@p

@script:python@
x << follow.x;
p << follow.p;
@@
follow(x, p)

@follow_decl@
identifier x;
type T;
expression X;
position p : script:python(X) { is_tgt(X, p) };
@@
T x = X@p;

@script:python@
x << follow_decl.x;
p << follow_decl.p;
@@
follow(x, p)

// ---------------------------------------------------------------------
// Find the sites: allocations stored into a target, and frees and
// per_cpu_ptr()-family calls of a target.  These rules change nothing;
// they record positions that the rewriting rules check.
// ---------------------------------------------------------------------

@site_asg@
expression X, E;
position q : script:python(X) { is_tgt(X, q) };
@@
X = E@q

@site_decl@
identifier x;
type T;
expression E;
position q : script:python(x) { is_tgt(x, q) };
@@
T x = E@q;

@site_ret@
expression E;
position q : script:python() { in_alloc_func(q) };
@@
return E@q;

@site_call@
expression X;
identifier fn = {free_percpu, per_cpu_ptr, this_cpu_ptr, raw_cpu_ptr};
position q : script:python(X) { is_tgt(X, q) };
@@
fn@q(X, ...)

@site_addr disable ptr_to_array@
expression X;
identifier F;
identifier fn = {per_cpu_ptr, this_cpu_ptr, raw_cpu_ptr};
position q : script:python(X) { is_tgt(X, q) };
@@
fn@q(&X->F, ...)

// The allocations and frees of a collected target whose allocation is
// odd (see collect() in lib/cpu_alloc.py) are left to a hand-written
// commit: only its accessors are converted.
@script:python@
x << site_asg.X;
q << site_asg.q;
@@
if not is_odd(x, q):
    mark(q)

@script:python@
x << site_decl.x;
q << site_decl.q;
@@
if not is_odd(x, q):
    mark(q)

@script:python@
q << site_ret.q;
@@
mark(q)

@script:python@
x << site_call.X;
fn << site_call.fn;
q << site_call.q;
@@
if str(fn) != "free_percpu" or not is_odd(x, q):
    mark(q)

@script:python@
q << site_addr.q;
@@
mark(q)

// ---------------------------------------------------------------------
// patch
// ---------------------------------------------------------------------

// One rule for all rewrites: the positions recorded above are those of
// the original code, and stay valid only within the first rule that
// changes a function.
//
// alloc_percpu() zeroes; cpu_alloc() only with __GFP_ZERO.  Every free
// of a target is rewritten: memory of cpu_alloc() must never reach
// free_percpu().  The allocations of the series are sizeof() of the
// pointed-to type, so the sized CPU_FREE() is exact; report mode flags
// an allocation of another size ("odd_size").
@conv depends on patch@
expression X, C, SZ, A, G, G1, E;
type T;
position q : script:python() { marked(q) };
@@
(
- alloc_percpu@q(T)
+ CPU_ALLOC(T, GFP_KERNEL | __GFP_ZERO)
|
// (a gfp that asks for zeroing already keeps it as it is)
- alloc_percpu_gfp@q(T, G1 | __GFP_ZERO)
+ CPU_ALLOC(T, G1 | __GFP_ZERO)
|
- alloc_percpu_gfp@q(T, G)
+ CPU_ALLOC(T, G | __GFP_ZERO)
|
// alloc_percpu() also takes an object, such as *m->maps: CPU_ALLOC()
// wants a type
- alloc_percpu@q(E)
+ CPU_ALLOC(typeof(E), GFP_KERNEL | __GFP_ZERO)
|
- alloc_percpu_gfp@q(E, G)
+ CPU_ALLOC(typeof(E), G | __GFP_ZERO)
|
- __alloc_percpu@q(SZ, A)
+ cpu_alloc(SZ, GFP_KERNEL | __GFP_ZERO, A)
|
- __alloc_percpu_gfp@q(SZ, A, G)
+ cpu_alloc(SZ, G | __GFP_ZERO, A)
|
- free_percpu@q(X)
+ CPU_FREE(X)
|
// (a cast is matched with the call, or spatch spaces "(T *) CPU_PTR")
- (T)per_cpu_ptr@q(X, C)
+ (T)CPU_PTR(X, C)
|
- (T)this_cpu_ptr@q(X)
+ (T)THIS_CPU(X)
|
- (T)raw_cpu_ptr@q(X)
+ (T)__THIS_CPU(X)
|
- per_cpu_ptr@q(X, C)
+ CPU_PTR(X, C)
|
- this_cpu_ptr@q(X)
+ THIS_CPU(X)
|
- raw_cpu_ptr@q(X)
+ __THIS_CPU(X)
)

// #include <linux/cpu_alloc.h> in a file that now uses the API: after
// the last <linux/...> include of its leading include block (see
// include_line()).  spatch adds after an "#include <linux/...>" pattern
// only at the file's last such include, and before one only at its
// first: when the last one is further down (under #if), the new include
// goes before the first <linux/...> include instead.
@has_inc depends on patch@
@@
#include <linux/cpu_alloc.h>

@inc_after depends on patch && !has_inc && conv@
position p : script:python() { int(p[0].line) == include_line(p[0].file) == linux_includes(p[0].file)[-1] };
@@
#include <linux/...>@p
+#include <linux/cpu_alloc.h>

@depends on patch && !has_inc && conv && !inc_after@
position p : script:python() { int(p[0].line) == linux_includes(p[0].file)[0] };
@@
+#include <linux/cpu_alloc.h>
#include <linux/...>@p

// A file with no <linux/...> include at all (coresight-trbe.c has only
// <asm/...> and local ones): before its first <asm/...> include.  On
// x86_64 the API would reach it anyway, through <net/snmp.h> or
// <linux/part_stat.h>; on arm64 it does not.
@depends on patch && !has_inc && conv && !inc_after@
position p : script:python() { linux_includes(p[0].file) == [0] and int(p[0].line) == asm_includes(p[0].file)[0] };
@@
+#include <linux/cpu_alloc.h>
#include <asm/...>@p

// ---------------------------------------------------------------------
// context and report: what patch mode rewrites, and what it cannot
// ---------------------------------------------------------------------

@depends on context@
identifier fn = {alloc_percpu, alloc_percpu_gfp, __alloc_percpu, __alloc_percpu_gfp,
                 free_percpu, per_cpu_ptr, this_cpu_ptr, raw_cpu_ptr};
position q : script:python() { marked(q) };
@@
* fn@q(...)

@r depends on report@
identifier fn = {alloc_percpu, alloc_percpu_gfp, __alloc_percpu, __alloc_percpu_gfp,
                 free_percpu, per_cpu_ptr, this_cpu_ptr, raw_cpu_ptr};
position q : script:python() { marked(q) };
@@
fn@q(...)

// An allocation whose size is not sizeof() of a type: CPU_FREE() would
// free sizeof(*p); fix such a free by hand with cpu_free(p, size).
@odd_size depends on report@
expression A, G;
expression SZ : script:python() { not is_sizeof(SZ) };
position q : script:python() { marked(q) };
@@
(
  __alloc_percpu@q(SZ, A)
|
  __alloc_percpu_gfp@q(SZ, A, G)
)

@script:python depends on report@
fn << r.fn;
q << r.q;
@@
coccilib.report.print_report(q[0], report_message(fn))

@script:python depends on report@
q << odd_size.q;
@@
coccilib.report.print_report(q[0], odd_size_message())
