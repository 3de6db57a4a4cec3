// SPDX-License-Identifier: GPL-2.0-only
/*
 * PID 1 of make bench (scripts/bench.sh), not of make boot.
 *
 * Reports the time from boot to init and the per-cpu memory after boot,
 * loads /bench.ko twice to measure the memory of 10000 four-byte counters
 * (mode=mem_pcpu, mode=mem_ca), then once for the timing benchmarks
 * (mode=bench), and ends the VM.  Every result is a line
 *
 *	cpu_alloc-bench: <figure> <value>
 *
 * "bench_quick", "bench_smp" and "bench_align_size" from the kernel command line reach init
 * as environment variables and are passed on to the module.
 */
#define _GNU_SOURCE
#include <sys/syscall.h>

#include "../lib.h"

#define PREFIX "cpu_alloc-bench: "

static long long percpu_bytes(void)
{
	long long kb = field("/proc/meminfo", "Percpu");

	return kb < 0 ? -1 : kb * 1024;
}

static int load(const char *params, int quiet)
{
	int fd = open("/bench.ko", O_RDONLY), rc;

	if (fd < 0) {
		printf(PREFIX "error no /bench.ko\n");
		return -1;
	}
	rc = syscall(SYS_finit_module, fd, params, 0);
	close(fd);
	if (rc && !quiet)
		printf(PREFIX "error finit_module(%s) failed\n", params);
	fflush(stdout);
	return rc;
}

static void unload(void)
{
	if (syscall(SYS_delete_module, "cpu_alloc_bench", O_NONBLOCK))
		printf(PREFIX "error delete_module failed\n");
}

static void mem(const char *mode, const char *name)
{
	long long p0 = percpu_bytes(), c0 = field("/proc/vmstat", "cpu_bytes"), p1, c1;
	char params[64];

	snprintf(params, sizeof(params), "mode=%s", mode);
	/* mode=mem_ca fails with ENODEV on a kernel without cpu_alloc */
	if (load(params, 1))
		return;
	p1 = percpu_bytes();
	c1 = field("/proc/vmstat", "cpu_bytes");
	printf(PREFIX "mem/percpu_delta_10000x4/%s %lld\n", name, p1 - p0);
	if (c0 >= 0)
		printf(PREFIX "mem/cpu_bytes_delta_10000x4/%s %lld\n", name, c1 - c0);
	fflush(stdout);
	unload();
}

int main(void)
{
	struct timespec ts;
	const char *q = getenv("bench_quick"), *s = getenv("bench_smp");
	const char *al = getenv("bench_align_size");
	char params[96];
	long long v;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	mount_proc_sys();
	printf(PREFIX "boot/ns_to_init %lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	printf(PREFIX "mem/percpu_boot %lld\n", percpu_bytes());
	v = field("/proc/vmstat", "cpu_bytes");
	if (v >= 0)
		printf(PREFIX "mem/cpu_bytes_boot %lld\n", v);
	fflush(stdout);

	mem("mem_pcpu", "alloc_percpu");
	mem("mem_ca", "cpu_alloc");
	snprintf(params, sizeof(params), "mode=bench quick=%d smp=%d align_size=%d",
		 q ? atoi(q) : 0, s ? atoi(s) : 0, al ? atoi(al) : 0);
	if (!load(params, 0))
		unload();
	printf(PREFIX "end\n");
	return end_vm();
}
