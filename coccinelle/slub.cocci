// SPDX-License-Identifier: GPL-2.0-only
/// slub: cpu_alloc: Convert kmem_cache->cpu_slab to cpu_alloc
///
/// Allocate the per-cpu kmem_cache_cpu structure of every slab cache
/// with cpu_alloc() instead of __alloc_percpu(), free it with
/// CPU_FREE(), and address the instance of a processor with CPU_PTR(),
/// THIS_CPU() and __THIS_CPU() instead of per_cpu_ptr(),
/// this_cpu_ptr() and raw_cpu_ptr().
///
/// The double word alignment that this_cpu_cmpxchg_double() needs is
/// still passed to the allocator.  __alloc_percpu() always zeroed the
/// area; cpu_alloc() zeroes only on request, so __GFP_ZERO is passed.
/// The this_cpu_*() and local_lock() operations on s->cpu_slab stay as
/// they are: memory from cpu_alloc() is reached through the per-cpu
/// segment at the same displacement on every processor, so the
/// lockless fast path is unchanged.  Only s->cpu_slab and addresses
/// derived from it are rewritten; the generic slub_get_cpu_ptr()
/// wrapper is left as it is.
//
// Confidence: High
// Options: --no-includes --include-headers
// Files: mm/slub.c include/linux/slub_def.h
//
// kmem_cache->cpu_slab is only ever set from the allocation (never to
// static per-cpu data), and the allocation is sizeof(struct
// kmem_cache_cpu), the type the field points to: CPU_FREE() is exact.

virtual patch
virtual context
virtual report

// Everything from "virtual patch" on, but the configuration block in
// @initialize:python@, is the same in every coccinelle/*.cocci of the
// series; keep it so (edit all of them together).  To check:
//   for f in coccinelle/*.cocci; do sed -n '/^virtual patch/,$p' $f |
//     sed '/---- configuration/,/---- end of configuration/d' | md5sum; done
//
// A "target" is a pointer that holds memory of the converted allocation:
//  - an expression whose text matches TARGET (a struct field or a global
//    variable, in any file and in macro bodies),
//  - a (function, name) pair of VARS (a parameter or a local variable
//    that is handed such a pointer); in a macro body, where spatch knows
//    no function, (file, name),
//  - a local variable of a function that is assigned a target there
//    (found by the rules "follow" and "follow_decl").
// ALLOC_FUNCS names functions that return the converted allocation.

@initialize:python@
@@
import re

# ---- configuration of this conversion ----
SUBJECT = 'kmem_cache->cpu_slab'
TARGET = re.compile(r'->\s*cpu_slab$')
VARS = set()
ALLOC_FUNCS = set()
# ---- end of configuration ----

followed = set()

# (No comment markers or backslashes in the script text: the SmPL
# lexer would take them.)
C_OPEN, C_CLOSE, C_LINE, BSL = "/" + "*", "*" + "/", "/" + "/", chr(92)

# linux_includes(FILE): the lines of all its "#include <linux/...>".
def linux_includes(name):
    with open(name) as fh:
        return [i for i, l in enumerate(fh, 1)
                if l.replace(chr(9), "").replace(" ", "").startswith("#include<linux/")] or [0]

# include_line(FILE): the line of the last "#include <linux/...>" that
# precedes the first line of code and is not inside #if (a header's
# include guard does not count).
def include_line(name):
    last, depth, guard, in_comment, cont = None, 0, False, False, False
    with open(name) as fh:
        for i, l in enumerate(fh, 1):
            s = l.strip()
            if cont:
                cont = s.endswith(BSL)
                continue
            if in_comment:
                in_comment = C_CLOSE not in s
                continue
            if s.startswith(C_OPEN):
                in_comment = C_CLOSE not in s
                continue
            if s == "" or s.startswith(C_LINE):
                continue
            if not s.startswith("#"):
                break
            cont = s.endswith(BSL)
            d = s[1:].strip()
            if d.startswith("if"):
                if name.endswith(".h") and not guard and d.startswith("ifndef"):
                    guard = True
                else:
                    depth += 1
            elif d.startswith("endif"):
                depth = max(depth - 1, 0)
            elif depth == 0 and d.startswith("include <linux/"):
                last = i
    return last

def strip(e):
    s = str(e).strip()
    while s.startswith('(') and s.endswith(')') and s.count('(') == 1:
        s = s[1:-1].strip()
    return s

def is_tgt(e, p):
    s = strip(e)
    if TARGET is not None and TARGET.search(s):
        return True
    fn = p[0].current_element
    if (p[0].file, fn, s) in followed:
        return True
    if fn != "something_else":
        return (fn, s) in VARS
    # a macro body: VARS names the file, relative to the kernel top
    f = p[0].file
    return any(s == v and (f == w or f.endswith("/" + w)) for (w, v) in VARS)

def in_alloc_func(p):
    return p[0].current_element in ALLOC_FUNCS

sites = set()

def key(p):
    return (p[0].file, p[0].line, p[0].column)

def mark(p):
    sites.add(key(p))

def marked(p):
    return key(p) in sites

def is_sizeof(e):
    return strip(e).startswith("sizeof")

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
followed.add((p[0].file, p[0].current_element, str(x)))

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
followed.add((p[0].file, p[0].current_element, str(x)))

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

@script:python@
q << site_asg.q;
@@
mark(q)

@script:python@
q << site_decl.q;
@@
mark(q)

@script:python@
q << site_ret.q;
@@
mark(q)

@script:python@
q << site_call.q;
@@
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
expression X, C, SZ, A, G;
type T;
position q : script:python() { marked(q) };
@@
(
- alloc_percpu@q(T)
+ CPU_ALLOC(T, GFP_KERNEL | __GFP_ZERO)
|
- alloc_percpu_gfp@q(T, G)
+ CPU_ALLOC(T, G | __GFP_ZERO)
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
rep = {"alloc_percpu": "CPU_ALLOC(T, GFP_KERNEL | __GFP_ZERO)",
       "alloc_percpu_gfp": "CPU_ALLOC(T, gfp | __GFP_ZERO)",
       "__alloc_percpu": "cpu_alloc(size, GFP_KERNEL | __GFP_ZERO, align)",
       "__alloc_percpu_gfp": "cpu_alloc(size, gfp | __GFP_ZERO, align)",
       "free_percpu": "CPU_FREE()", "per_cpu_ptr": "CPU_PTR()",
       "this_cpu_ptr": "THIS_CPU()", "raw_cpu_ptr": "__THIS_CPU()"}
coccilib.report.print_report(q[0], "%s() of %s: use %s" % (fn, SUBJECT, rep[str(fn)]))

@script:python depends on report@
q << odd_size.q;
@@
coccilib.report.print_report(q[0], "%s: allocation size is not sizeof(type): free it with cpu_free(p, size), not CPU_FREE()" % SUBJECT)
