// SPDX-License-Identifier: GPL-2.0-only
/*
 * The guest's /test_kmem: the kernel tree's own memcg kmem selftest,
 * tools/testing/selftests/cgroup/test_kmem.c, compiled with this main()
 * in place of its own (scripts/boot.sh: gcc -static with -I to that
 * directory, and cgroup_util.c), and in_list() of qemu/lib.h.  The
 * tests, their order and their verdicts are the tree's; this main() adds
 * two things:
 *
 *   test_kmem [SKIP]   SKIP: test names, separated by commas, that are
 *                      reported "ok N # SKIP NAME" without running
 *
 * and, after each test that ran, a line "# NAME: N ms", its wall time.
 *
 * Why skip: test_kmem_basic always fails in this guest (its initramfs
 * root drops negative dentries) and took 183 s of the debug guest's 380;
 * test_kmem_memcg_deletion takes most of the rest (4.3 of 6.0 s in an idle
 * normal guest, 83 s in the debug one), and make bisect-check's boots of
 * every commit leave it out, as they run part of the stress test, while
 * the head's boots run it (scripts/lib.sh, KMEM_SKIP).  test_percpu_basic,
 * the per-cpu charge test, is never skipped (the host refuses it).
 *
 * stdout is line buffered: the tests fork (cg_run()), and a child must
 * not flush a copy of lines the parent has printed.
 */
#define main test_kmem_tree_main
#include "test_kmem.c"
#undef main

#include "lib.h"

static long ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

int main(int argc, char **argv)
{
	const char *skip = argc > 1 ? argv[1] : "";
	int i, ret = EXIT_SUCCESS;
	char root[PATH_MAX];
	long t0;

	setvbuf(stdout, NULL, _IOLBF, 0);

	/* as the tree's main() */
	if (cg_find_unified_root(root, sizeof(root)))
		ksft_exit_skip("cgroup v2 isn't mounted\n");
	if (cg_read_strstr(root, "cgroup.controllers", "memory"))
		ksft_exit_skip("memory controller isn't available\n");
	if (cg_read_strstr(root, "cgroup.subtree_control", "memory"))
		if (cg_write(root, "cgroup.subtree_control", "+memory"))
			ksft_exit_skip("Failed to set memory controller\n");

	for (i = 0; i < ARRAY_SIZE(tests); i++) {
		if (in_list(skip, tests[i].name)) {
			ksft_test_result_skip("%s\n", tests[i].name);
			continue;
		}
		t0 = ms_now();
		switch (tests[i].fn(root)) {
		case KSFT_PASS:
			ksft_test_result_pass("%s\n", tests[i].name);
			break;
		case KSFT_SKIP:
			ksft_test_result_skip("%s\n", tests[i].name);
			break;
		default:
			ret = EXIT_FAILURE;
			ksft_test_result_fail("%s\n", tests[i].name);
			break;
		}
		printf("# %s: %ld ms\n", tests[i].name, ms_now() - t0);
	}
	return ret;
}
