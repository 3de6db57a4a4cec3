# SPDX-License-Identifier: GPL-2.0-only
"""Unit tests of coccinelle/lib/cpu_alloc.py, the helpers of the
Coccinelle engine, without spatch: run by tests/cocci.sh, which prints
one "ok - NAME" or "not ok - NAME" line per test (as this file does when
run as a script).
"""

import os
import sys
import tempfile
import unittest
from collections import namedtuple

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "coccinelle", "lib"))
import cpu_alloc as ca  # noqa: E402

# What spatch binds to a position metavariable: a list of these.
Pos = namedtuple("Pos", "file line column current_element")


def pos(fn, file="mm/foo.c", line="10", column="4"):
    return [Pos(file, line, column, fn)]


class Configured(unittest.TestCase):
    def setUp(self):
        ca.configure(subject="foo->stats", target=r"->\s*stats$",
                     vars={("foo_free", "st"), ("include/net/demo.h", "m")},
                     alloc_funcs={"foo_alloc"})


class TestIsTarget(Configured):
    def test_target_field(self):
        self.assertTrue(ca.is_tgt("f->stats", pos("f")))
        self.assertTrue(ca.is_tgt("f -> stats", pos("f")))
        self.assertTrue(ca.is_tgt("(f->stats)", pos("f")))
        self.assertTrue(ca.is_tgt(" ( f->stats ) ", pos("f")))

    def test_other_field(self):
        self.assertFalse(ca.is_tgt("f->stats_lock", pos("f")))
        self.assertFalse(ca.is_tgt("f->other", pos("f")))
        self.assertFalse(ca.is_tgt("stats", pos("f")))
        # only one pair of parentheses around the whole is dropped
        self.assertFalse(ca.is_tgt("(a)->b(f->stats)", pos("f")))

    def test_vars_by_function(self):
        self.assertTrue(ca.is_tgt("st", pos("foo_free")))
        self.assertFalse(ca.is_tgt("st", pos("bar_free")))

    def test_vars_by_file_in_macro_body(self):
        m = "something_else"
        self.assertTrue(ca.is_tgt("m", pos(m, file="include/net/demo.h")))
        self.assertTrue(ca.is_tgt("m", pos(m, file="/k/include/net/demo.h")))
        self.assertFalse(ca.is_tgt("m", pos(m, file="/k/include/net/xdemo.h")))
        self.assertFalse(ca.is_tgt("n", pos(m, file="include/net/demo.h")))
        # in a function, the file pairs do not count
        self.assertFalse(ca.is_tgt("m", pos("demo_read", file="include/net/demo.h")))

    def test_followed(self):
        self.assertFalse(ca.is_tgt("s", pos("f")))
        ca.follow("s", pos("f", line="3"))
        self.assertTrue(ca.is_tgt("s", pos("f")))
        self.assertFalse(ca.is_tgt("s", pos("g")))
        self.assertFalse(ca.is_tgt("s", pos("f", file="mm/bar.c")))

    def test_no_target(self):
        ca.configure(subject="x", vars={("f", "p")})
        self.assertIsNone(ca.TARGET)
        self.assertFalse(ca.is_tgt("f->stats", pos("f")))
        self.assertTrue(ca.is_tgt("p", pos("f")))


class TestSites(Configured):
    def test_mark(self):
        self.assertFalse(ca.marked(pos("f")))
        ca.mark(pos("f"))
        self.assertTrue(ca.marked(pos("f")))
        self.assertTrue(ca.marked(pos("g")))  # by place, not function
        self.assertFalse(ca.marked(pos("f", column="5")))
        self.assertFalse(ca.marked(pos("f", line="11")))
        self.assertFalse(ca.marked(pos("f", file="mm/bar.c")))

    def test_configure_forgets(self):
        ca.mark(pos("f"))
        ca.follow("s", pos("f"))
        ca.configure(subject="x")
        self.assertFalse(ca.marked(pos("f")))
        self.assertFalse(ca.is_tgt("s", pos("f")))

    def test_in_alloc_func(self):
        self.assertTrue(ca.in_alloc_func(pos("foo_alloc")))
        self.assertFalse(ca.in_alloc_func(pos("foo_free")))

    def test_is_sizeof(self):
        self.assertTrue(ca.is_sizeof("sizeof(struct foo)"))
        self.assertTrue(ca.is_sizeof("(sizeof *p)"))
        self.assertFalse(ca.is_sizeof("size"))
        self.assertFalse(ca.is_sizeof("2 * sizeof(u64)"))


class TestMessages(Configured):
    def test_report_message(self):
        self.assertEqual(ca.report_message("free_percpu"),
                         "free_percpu() of foo->stats: use CPU_FREE()")
        self.assertEqual(ca.report_message("alloc_percpu_gfp"),
                         "alloc_percpu_gfp() of foo->stats: use "
                         "CPU_ALLOC(T, gfp | __GFP_ZERO)")

    def test_every_function_has_a_replacement(self):
        for fn in ("alloc_percpu", "alloc_percpu_gfp", "__alloc_percpu",
                   "__alloc_percpu_gfp", "free_percpu", "per_cpu_ptr",
                   "this_cpu_ptr", "raw_cpu_ptr"):
            self.assertIn(fn, ca.REPLACEMENT)

    def test_odd_size_message(self):
        self.assertTrue(ca.odd_size_message().startswith("foo->stats: "))


class TestIncludes(unittest.TestCase):
    def file(self, text, suffix=".c"):
        fd, name = tempfile.mkstemp(suffix=suffix)
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        self.addCleanup(os.unlink, name)
        return name

    def test_leading_block(self):
        f = self.file("// SPDX\n#include <linux/a.h>\n#include <linux/b.h>\n"
                      "#include \"local.h\"\n\nint x;\n#include <linux/c.h>\n")
        self.assertEqual(ca.include_line(f), 3)
        self.assertEqual(ca.linux_includes(f), [2, 3, 7])

    def test_comments(self):
        f = self.file("/*\n * #include <linux/no.h>\n */\n#include <linux/a.h>\n"
                      "/* one line */\n// a line\n#include <linux/b.h>\nint x;\n")
        self.assertEqual(ca.include_line(f), 7)
        # linux_includes() reads every line; its callers compare the two
        self.assertEqual(ca.linux_includes(f), [4, 7])

    def test_under_if(self):
        f = self.file("#include <linux/a.h>\n#ifdef CONFIG_X\n"
                      "#include <linux/b.h>\n#endif\n#include <linux/c.h>\nint x;\n")
        self.assertEqual(ca.include_line(f), 5)
        f = self.file("#include <linux/a.h>\n#if X\n#include <linux/b.h>\n"
                      "#endif\nint x;\n")
        self.assertEqual(ca.include_line(f), 1)
        self.assertEqual(ca.linux_includes(f), [1, 3])

    def test_header_guard(self):
        text = ("#ifndef _A_H\n#define _A_H\n#include <linux/a.h>\n"
                "#ifndef CONFIG_X\n#include <linux/b.h>\n#endif\nint x;\n#endif\n")
        self.assertEqual(ca.include_line(self.file(text, ".h")), 3)
        # in a .c file the first #ifndef is no guard
        self.assertIsNone(ca.include_line(self.file(text, ".c")))

    def test_continuation(self):
        f = self.file("#include <linux/a.h>\n#define A(x) \\\n"
                      "#include <linux/no.h>\n#include <linux/b.h>\nint x;\n")
        self.assertEqual(ca.include_line(f), 4)

    def test_spacing(self):
        f = self.file("#  include <linux/a.h>\n#\tinclude\t<linux/b.h>\nint x;\n")
        self.assertEqual(ca.linux_includes(f), [1, 2])

    def test_none(self):
        f = self.file("#include \"a.h\"\nint x;\n")
        self.assertIsNone(ca.include_line(f))
        self.assertEqual(ca.linux_includes(f), [0])


class TestCollect(unittest.TestCase):
    """The collect mode: targets from their allocations."""

    def setUp(self):
        ca.keys.clear()
        ca.local_allocs.clear()
        fd, self.name = tempfile.mkstemp()
        os.close(fd)
        os.environ[ca.TARGETS_ENV] = self.name

    def tearDown(self):
        os.unlink(self.name)
        del os.environ[ca.TARGETS_ENV]
        ca.keys.clear()
        ca.local_allocs.clear()

    def test_split_target(self):
        self.assertEqual(ca.split_target("net -> ct . stat"), ("stat", False, True))
        self.assertEqual(ca.split_target("desc[i].kstat_irqs"), ("kstat_irqs", False, True))
        self.assertEqual(ca.split_target("td->buckets[READ]"), ("buckets", True, True))
        self.assertEqual(ca.split_target("pcpu [ i ]"), ("pcpu", True, False))
        self.assertEqual(ca.split_target("tick_work_cpu"), ("tick_work_cpu", False, False))
        self.assertIsNone(ca.split_target("*p"))

    def test_is_alloc(self):
        self.assertTrue(ca.is_alloc("alloc_percpu ( int )"))
        self.assertTrue(ca.is_alloc("( char __percpu * ) alloc_percpu ( t )"))
        self.assertTrue(ca.is_alloc("__alloc_percpu_gfp(sz, 8, gfp)"))
        self.assertFalse(ca.is_alloc("kmalloc(sz, gfp)"))
        self.assertFalse(ca.is_alloc("my_alloc_percpu(sz)"))

    def test_odd(self):
        self.assertFalse(ca.alloc_text_is_odd("alloc_percpu(struct foo)", "f->s"))
        self.assertFalse(ca.alloc_text_is_odd("__alloc_percpu(sizeof(*f->s), 8)", "f -> s"))
        self.assertFalse(ca.alloc_text_is_odd("__alloc_percpu(sizeof (f->s[0]), 8)", "f->s"))
        # a type's size need not be the size of what the target points to
        self.assertTrue(ca.alloc_text_is_odd("__alloc_percpu(sizeof(struct foo), 8)", "f->s"))
        self.assertTrue(ca.alloc_text_is_odd("__alloc_percpu(n * sizeof(*f->s), 8)", "f->s"))
        self.assertTrue(ca.alloc_text_is_odd("__alloc_percpu_gfp(size, align(x, y), gfp)", "p"))
        self.assertTrue(ca.alloc_text_is_odd("(unsigned long)__alloc_percpu(sizeof(long), 8)", "r"))
        self.assertEqual(ca.first_arg("f(a(b, c), d)"), "a(b, c)")

    def test_round_trip(self):
        ca.collect_alloc("f->stats", "alloc_percpu(T)", pos("f_init"))
        ca.local_alloc(pos("f_test", line="20"))
        ca.collect_alloc("pcpu[i]", "__alloc_percpu(n, 8)", pos("f_test", line="20"))
        ca.collect_alloc("hits", "alloc_percpu(int)", pos("f_init", line="30"))
        ca.collect_alloc("g->blob", "__alloc_percpu(sizeof(*g->blob), 8)", pos("f_init"))
        ca.collect_alloc("g->blob", "__alloc_percpu(size, 8)", pos("g_init"))
        ca.write_collected()
        ca.configure(subject="t", collected=True)
        self.assertTrue(ca.is_tgt("x->stats", pos("any")))
        self.assertTrue(ca.is_tgt("x.stats", pos("any")))
        self.assertFalse(ca.is_tgt("x->stats2", pos("any")))
        self.assertFalse(ca.is_tgt("x->stats[1]", pos("any")))
        self.assertTrue(ca.is_tgt("hits", pos("other")))
        self.assertTrue(ca.is_tgt("pcpu[j]", pos("f_test")))
        self.assertFalse(ca.is_tgt("pcpu[j]", pos("f_other")))
        self.assertFalse(ca.is_odd("x->stats", pos("any")))
        # one odd allocation makes every allocation of the name odd
        self.assertTrue(ca.is_odd("y->blob", pos("any")))
        self.assertTrue(ca.is_odd("pcpu[0]", pos("f_test")))

    def test_untyped(self):
        # a field or global declared void __percpu * is odd: CPU_FREE()
        # needs the type; a local of the same name is not
        ca.collect_alloc("mp->m_inodegc", "alloc_percpu(struct xfs_inodegc)", pos("f_init"))
        ca.collect_alloc("mp->m_stats", "alloc_percpu(struct xfsstats)", pos("f_init"))
        ca.local_alloc(pos("g_init", line="50"))
        ca.collect_alloc("m_inodegc", "alloc_percpu(int)", pos("g_init", line="50"))
        ca.write_collected()
        ca.configure(subject="t", collected=True, untyped=("m_inodegc",))
        self.assertTrue(ca.is_tgt("x->m_inodegc", pos("any")))
        self.assertTrue(ca.is_odd("x->m_inodegc", pos("any")))
        self.assertFalse(ca.is_odd("x->m_stats", pos("any")))
        self.assertFalse(ca.is_odd("m_inodegc", pos("g_init")))
        ca.configure(subject="t", collected=True)
        self.assertFalse(ca.is_odd("x->m_inodegc", pos("any")))

    def test_store(self):
        ca.local_alloc(pos("f_init"))
        ca.collect_alloc("m", "alloc_percpu(T)", pos("f_init"))
        ca.collect_store("f->moved", "m", pos("f_init", line="40"))
        ca.collect_store("f->other", "n", pos("f_init", line="41"))
        ca.collect_store("copy", "m", pos("f_init", line="42"))
        self.assertEqual(ca.keys, {("local", "f_init", "m", False, False),
                                   ("field", "", "moved", False, False)})

    def test_needs_file(self):
        del os.environ[ca.TARGETS_ENV]
        with self.assertRaises(RuntimeError):
            ca.configure(subject="t", collected=True)
        os.environ[ca.TARGETS_ENV] = self.name


class TestConversions(unittest.TestCase):
    """The configuration of every coccinelle/*.cocci: its
    @initialize:python@ rule calls configure() with a valid setting."""


def add_conversion_tests():
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    cocci = os.path.join(top, "coccinelle")
    for f in sorted(os.listdir(cocci)):
        if f.endswith(".cocci"):
            name = f[:-len(".cocci")]
            setattr(TestConversions, "test_" + name,
                    lambda self, path=os.path.join(cocci, f): check_conversion(self, path))


def check_conversion(test, path):
    with open(path) as fh:
        text = fh.read()
    head = "@initialize:python@\n@@\n"
    test.assertEqual(text.count(head), 1, "one @initialize:python@ rule")
    code = text.split(head, 1)[1]
    # the rule ends at the next rule, if any
    lines = []
    for l in code.splitlines():
        if l.startswith("@"):
            break
        lines.append(l)
    ca.SUBJECT = None
    code = "\n".join(lines)
    collected = "collected=True" in code
    test.assertEqual(collected, "\n// Targets: collected\n" in text,
                     "configure(collected=True) if and only if '// Targets: collected'")
    if collected:
        # what a collect pass would have found
        fd, name = tempfile.mkstemp()
        os.write(fd, b"field\t\tstats\t0\t0\n")
        os.close(fd)
        os.environ[ca.TARGETS_ENV] = name
        try:
            exec(code, {"configure": ca.configure})
        finally:
            os.unlink(name)
            del os.environ[ca.TARGETS_ENV]
    else:
        exec(code, {"configure": ca.configure})
    test.assertTrue(ca.SUBJECT, "configure() names the SUBJECT")
    test.assertTrue(ca.TARGET is not None or ca.VARS, "a TARGET or VARS")
    for w, v in ca.VARS:
        test.assertTrue(v.isidentifier(), "VARS: %r is a name" % v)
    for fn in ca.ALLOC_FUNCS:
        test.assertTrue(fn.isidentifier(), "ALLOC_FUNCS: %r is a name" % fn)


add_conversion_tests()


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    failed = 0

    def flatten(s):
        for t in s:
            if isinstance(t, unittest.TestSuite):
                yield from flatten(t)
            else:
                yield t

    for test in flatten(suite):
        result = unittest.TestResult()
        test.run(result)
        name = "cpu_alloc.py: %s.%s" % (type(test).__name__, test._testMethodName)
        problems = result.errors + result.failures
        if problems or not result.wasSuccessful():
            failed += 1
            print("not ok - " + name)
            for _, tb in problems:
                sys.stdout.write("".join("#   " + l + "\n" for l in tb.splitlines()))
        else:
            print("ok - " + name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
