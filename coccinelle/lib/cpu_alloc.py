# SPDX-License-Identifier: GPL-2.0-only
"""Helpers of coccinelle/lib/cpu_alloc.cocci, the shared engine of the
cpu_alloc conversions.

A conversion's .cocci includes lib/cpu_alloc.cocci, whose
@initialize:python@ imports this module, and calls configure() in its
own @initialize:python@.  The rules of the engine call the functions
below from their script constraints and script rules.

A "target" is a pointer that holds memory of the converted allocation:
 - an expression whose text matches the regular expression TARGET (a
   struct field or a global variable, in any file and in macro bodies),
 - a (function, name) pair of VARS (a parameter or a local variable that
   is handed such a pointer); in a macro body, where spatch knows no
   function, (file, name), the file relative to the kernel top,
 - a local variable of a function that is assigned a target there
   (recorded by follow(), from the rules "follow" and "follow_decl").
ALLOC_FUNCS names functions that return the converted allocation.

A position argument "p" is what spatch binds to a position metavariable:
a sequence whose p[0] has .file, .line, .column and .current_element.
The module keeps no state but the configuration and the two sets below;
spatch runs it once per process.
"""

import re

__all__ = ["configure", "is_tgt", "in_alloc_func", "follow", "mark",
           "marked", "is_sizeof", "include_line", "linux_includes",
           "report_message", "odd_size_message"]

# The configuration of the conversion (configure()).
SUBJECT = None
TARGET = None
VARS = set()
ALLOC_FUNCS = set()

# (file, function, name) of the local variables that hold a target.
followed = set()
# (file, line, column) of the sites the rewriting rules may change.
sites = set()


def configure(subject, target=None, vars=(), alloc_funcs=()):
    """Set the conversion: SUBJECT (named in report messages), TARGET (a
    regular expression, or None), VARS ((function or file, name) pairs)
    and ALLOC_FUNCS (function names)."""
    global SUBJECT, TARGET, VARS, ALLOC_FUNCS
    SUBJECT = subject
    TARGET = re.compile(target) if isinstance(target, str) else target
    VARS = set(vars)
    ALLOC_FUNCS = set(alloc_funcs)
    followed.clear()
    sites.clear()


def linux_includes(name):
    """The line numbers of all the "#include <linux/...>" of file NAME,
    or [0] when it has none."""
    with open(name) as fh:
        return [i for i, l in enumerate(fh, 1)
                if l.replace("\t", "").replace(" ", "").startswith("#include<linux/")] or [0]


def include_line(name):
    """The line of the last "#include <linux/...>" of file NAME that
    precedes its first line of code and is not inside #if (a header's
    include guard does not count), or None."""
    last, depth, guard, in_comment, cont = None, 0, False, False, False
    with open(name) as fh:
        for i, l in enumerate(fh, 1):
            s = l.strip()
            if cont:
                cont = s.endswith("\\")
                continue
            if in_comment:
                in_comment = "*/" not in s
                continue
            if s.startswith("/*"):
                in_comment = "*/" not in s
                continue
            if s == "" or s.startswith("//"):
                continue
            if not s.startswith("#"):
                break
            cont = s.endswith("\\")
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
    """The text of expression E without blanks and enclosing parentheses
    around it."""
    s = str(e).strip()
    while s.startswith('(') and s.endswith(')') and s.count('(') == 1:
        s = s[1:-1].strip()
    return s


def is_tgt(e, p):
    """True if expression E, at position P, is a target."""
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


def follow(x, p):
    """Record that the local variable X, assigned at P, holds a target."""
    followed.add((p[0].file, p[0].current_element, str(x)))


def in_alloc_func(p):
    return p[0].current_element in ALLOC_FUNCS


def key(p):
    return (p[0].file, p[0].line, p[0].column)


def mark(p):
    """Record P as a site of the conversion."""
    sites.add(key(p))


def marked(p):
    return key(p) in sites


def is_sizeof(e):
    return strip(e).startswith("sizeof")


# What report mode proposes instead of each function.
REPLACEMENT = {
    "alloc_percpu": "CPU_ALLOC(T, GFP_KERNEL | __GFP_ZERO)",
    "alloc_percpu_gfp": "CPU_ALLOC(T, gfp | __GFP_ZERO)",
    "__alloc_percpu": "cpu_alloc(size, GFP_KERNEL | __GFP_ZERO, align)",
    "__alloc_percpu_gfp": "cpu_alloc(size, gfp | __GFP_ZERO, align)",
    "free_percpu": "CPU_FREE()", "per_cpu_ptr": "CPU_PTR()",
    "this_cpu_ptr": "THIS_CPU()", "raw_cpu_ptr": "__THIS_CPU()",
}


def report_message(fn):
    """The report of a call of FN at a site."""
    return "%s() of %s: use %s" % (fn, SUBJECT, REPLACEMENT[str(fn)])


def odd_size_message():
    """The report of an allocation whose size is not sizeof(type)."""
    return ("%s: allocation size is not sizeof(type): free it with "
            "cpu_free(p, size), not CPU_FREE()" % SUBJECT)
