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

import os
import re

__all__ = ["configure", "is_tgt", "in_alloc_func", "follow", "mark",
           "marked", "is_sizeof", "include_line", "linux_includes", "asm_includes",
           "report_message", "odd_size_message", "collect", "collect_store",
           "is_collected_local", "write_collected", "is_odd", "is_alloc",
           "local_alloc", "collect_alloc"]

# The configuration of the conversion (configure()).
SUBJECT = None
TARGET = None
VARS = set()
ALLOC_FUNCS = set()
# Collected targets whose allocation is not exactly sizeof(*target): a
# regular expression (fields, globals) and (function, name) pairs.
ODD = None
ODD_VARS = set()
# Whether the targets are the collected ones (configure(collected=True)).
COLLECTED = False
# Collected fields and globals declared "void __percpu *": CPU_FREE()
# takes its size from the type, so they are treated as odd.
UNTYPED = set()

# The environment variable that names the file of collected targets.
TARGETS_ENV = "CPU_ALLOC_TARGETS"

# (file, function, name) of the local variables that hold a target.
followed = set()
# (file, line, column) of the sites the rewriting rules may change.
sites = set()


def configure(subject, target=None, vars=(), alloc_funcs=(), collected=False, untyped=()):
    """Set the conversion: SUBJECT (named in report messages), TARGET (a
    regular expression, or None), VARS ((function or file, name) pairs)
    and ALLOC_FUNCS (function names).  With COLLECTED, the targets are
    instead those of the file that $CPU_ALLOC_TARGETS names, which the
    collect pass (spatch -D collect, see write_collected()) wrote.
    UNTYPED names collected fields and globals that are declared void
    __percpu * (spatch runs without the headers and cannot see it): they
    are odd, since CPU_FREE() takes the size from the pointer's type."""
    global SUBJECT, TARGET, VARS, ALLOC_FUNCS, ODD, ODD_VARS, COLLECTED, UNTYPED
    SUBJECT = subject
    COLLECTED = collected
    UNTYPED = set(untyped)
    TARGET = re.compile(target) if isinstance(target, str) else target
    VARS = set(vars)
    ALLOC_FUNCS = set(alloc_funcs)
    ODD, ODD_VARS = None, set()
    followed.clear()
    sites.clear()
    if collected:
        load_collected(os.environ.get(TARGETS_ENV))


# ---------------------------------------------------------------------
# The collect pass: targets found from their allocations.
#
# A key is (kind, function, name, indexed, odd):
#  - kind "field": a struct member "name", reached by "->" or "."
#    (the struct is not known: spatch runs without the headers);
#  - kind "global": a variable outside any function;
#  - kind "local": a local variable of "function";
#  - indexed: the allocation is stored in an element ("name[i]");
#  - odd: some allocation of the key has a size that is not sizeof() of
#    a type, or is cast: CPU_FREE() would free the wrong size, so its
#    allocations and frees are left to a hand-written commit.
# ---------------------------------------------------------------------

# The keys found by this process (collect mode).
keys = set()

ALLOC_FNS = ("alloc_percpu", "alloc_percpu_gfp", "__alloc_percpu",
             "__alloc_percpu_gfp")


# Positions (file, line, column) of allocations stored in a local.
local_allocs = set()


def is_alloc(e):
    """True if the text of expression E is an allocation of the percpu
    allocator, cast or not."""
    return re.match(r"^(\([^()]*\)\s*)?(%s)\s*\(" % "|".join(ALLOC_FNS), strip(e)) is not None


def first_arg(call):
    """The first argument of the call text CALL ("f(a, b)" gives "a")."""
    s = call[call.index("(") + 1:]
    depth, out = 0, ""
    for ch in s:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                break
            depth -= 1
        elif ch == "," and depth == 0:
            break
        out += ch
    return out.strip()


def alloc_text_is_odd(e, x):
    """True when the allocation E (see is_alloc()) of the target X is
    cast, or is a __alloc_percpu*() whose size is not sizeof(*X) or
    sizeof(X[0]): CPU_FREE(X) frees sizeof(*X), which must be the size
    that was allocated.  (alloc_percpu(T) is T-sized, and assigning it
    to a pointer of another type would not compile without a cast.)"""
    s = strip(e)
    if s.startswith("("):
        return True
    if not s.startswith("__"):
        return False
    size = "".join(first_arg(s).split())
    t = "".join(strip(x).split())
    return size not in ("sizeof(*%s)" % t, "sizeof(*(%s))" % t, "sizeof(%s[0])" % t)


def local_alloc(p):
    """Record that the allocation at P is stored in a local variable."""
    local_allocs.add(key(p))


def collect_alloc(x, e, p):
    """X = E at P, E an allocation: record the target X."""
    collect(x, p, key(p) in local_allocs, alloc_text_is_odd(e, x))


def split_target(x):
    """(name, indexed, is_member) of the target expression X, or None when
    it is neither a member nor a variable (e.g. *p)."""
    s = "".join(strip(x).split())
    m = re.search(r"(->|\.)([A-Za-z_]\w*)((\[[^]]*\])*)$", s)
    if m:
        return m.group(2), bool(m.group(3)), True
    m = re.fullmatch(r"([A-Za-z_]\w*)((\[[^]]*\])*)", s)
    if m:
        return m.group(1), bool(m.group(2)), False
    return None


def alloc_is_odd(fn, args):
    """True when the allocation FN(ARGS...) does not have the size of
    the type CPU_FREE() will take: a __alloc_percpu*() whose size is not
    a sizeof()."""
    return str(fn).startswith("__") and not is_sizeof(args[0] if args else "")


def collect(x, p, local, odd):
    """Record the target X, assigned an allocation at P; LOCAL if X is a
    local variable of P's function."""
    t = split_target(x)
    if t is None:
        return
    name, indexed, member = t
    fn = p[0].current_element
    if member:
        keys.add(("field", "", name, indexed, odd))
    elif local:
        keys.add(("local", fn, name, indexed, odd))
    else:
        keys.add(("global", "", name, indexed, odd))


def is_collected_local(x, p):
    """True if X is a local variable that the collect pass of this process
    recorded in P's function; its odd flag, else None."""
    fn = p[0].current_element
    odd = [k[4] for k in keys if k[0] == "local" and k[1] == fn and k[2] == str(x).strip()]
    return any(odd) if odd else None


def collect_store(x, v, p):
    """X = V, where V is a collected local variable: X is a target too
    (a member or a global; a local is followed by the patch mode)."""
    odd = is_collected_local(v, p)
    t = split_target(x)
    if odd is not None and t is not None and t[2]:
        collect(x, p, False, odd)


def write_collected():
    """Append this process's keys to the file $CPU_ALLOC_TARGETS (collect
    mode runs once per file, like the patch mode)."""
    if not keys:
        return
    name = os.environ.get(TARGETS_ENV)
    if not name:
        raise RuntimeError("-D collect needs $%s, the file to write the targets to" % TARGETS_ENV)
    with open(name, "a") as fh:
        for k in sorted(keys):
            fh.write("\t".join((k[0], k[1], k[2], str(int(k[3])), str(int(k[4])))) + "\n")


def key_regex(ks):
    """The regular expression of the field and global keys KS."""
    alts = []
    for kind, _, name, indexed, _ in sorted(ks):
        idx = r"(\s*\[.*\])+" if indexed else ""
        if kind == "field":
            alts.append(r"(->|\.)\s*" + name + idx)
        else:
            alts.append(r"^" + name + idx)
    return re.compile("(" + "|".join(alts) + ")$") if alts else None


def load_collected(name):
    """Make the keys of the file NAME (written by write_collected()) the
    targets: fields and globals in TARGET, locals in VARS; the odd ones
    also in ODD and ODD_VARS."""
    global TARGET, ODD, ODD_VARS
    if not name or not os.path.isfile(name):
        raise RuntimeError("configure(collected=True) needs $%s, the file the collect pass "
                           "(spatch -D collect) wrote; run the conversion with scripts/regen.sh" % TARGETS_ENV)
    ks = set()
    with open(name) as fh:
        for line in fh:
            kind, fn, var, indexed, odd = line.rstrip("\n").split("\t")
            ks.add((kind, fn, var, indexed == "1",
                    odd == "1" or (kind != "local" and var in UNTYPED)))
    odd_names = {(k[0], k[1], k[2]) for k in ks if k[4]}
    ks = {k[:4] + ((k[0], k[1], k[2]) in odd_names,) for k in ks}
    TARGET = key_regex([k for k in ks if k[0] != "local"])
    ODD = key_regex([k for k in ks if k[0] != "local" and k[4]])
    for kind, fn, var, indexed, odd in ks:
        if kind == "local":
            VARS.add((fn, var))
            if odd:
                ODD_VARS.add((fn, var))


def is_odd(e, p):
    """True if the target E, at P, has an odd allocation (see collect())."""
    s = strip(e)
    if ODD is not None and ODD.search(s):
        return True
    return (p[0].current_element, re.sub(r"\s*\[.*\]$", "", s)) in ODD_VARS


def includes_of(name, top):
    """The line numbers of all the "#include <TOP/...>" of file NAME, or
    [0] when it has none."""
    start = "#include<%s/" % top
    with open(name) as fh:
        return [i for i, l in enumerate(fh, 1)
                if l.replace("\t", "").replace(" ", "").startswith(start)] or [0]


def linux_includes(name):
    """The line numbers of all the "#include <linux/...>" of file NAME,
    or [0] when it has none."""
    return includes_of(name, "linux")


def asm_includes(name):
    """The same for "#include <asm/...>"."""
    return includes_of(name, "asm")


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
        # a collected local may be an array: "pcpu[i]" of the local pcpu
        return (fn, s) in VARS or (COLLECTED and (fn, re.sub(r"\s*\[.*\]$", "", s)) in VARS)
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
