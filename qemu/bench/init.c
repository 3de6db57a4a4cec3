// SPDX-License-Identifier: GPL-2.0-only
/*
 * PID 1 of make bench (scripts/bench.sh), not of make boot.
 *
 * Reports the time from boot to init and the per-cpu memory after boot,
 * loads /bench.ko twice to measure the memory of 10000 four-byte counters
 * (mode=mem_pcpu, mode=mem_ca), then once for the timing benchmarks
 * (mode=bench), and ends the VM.  With bench_workloads=1 it runs the
 * workloads instead, in a boot of their own so that they start from the
 * per-cpu memory of a fresh boot (wl_*() below: network namespaces,
 * memory cgroups, a module with static per-cpu data loaded and
 * unloaded).  Every result is a line
 *
 *	cpu_alloc-bench: <figure> <value>
 *
 * and a failure is a line "cpu_alloc-bench: error <what>", which fails
 * make bench; "end" is the last line.  "bench_quick", "bench_smp",
 * "bench_align_size" and "bench_workloads" from the kernel command line
 * reach init as environment variables; the first three are passed on to
 * the module, bench_quick=1 also makes the workloads short.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>

#include "../lib.h"

#define PREFIX "cpu_alloc-bench: "

/* the workloads' counts: full, and with bench_quick=1 */
#define NETNS_N 1000
#define NETNS_QUICK 20
#define MEMCG_N 1000
#define MEMCG_QUICK 20
#define MODULE_N 100
#define MODULE_QUICK 5
/* guest seconds to wait for the last namespaces or cgroups to be torn down */
#define TEARDOWN_SECS 120
/* where the cgroup2 hierarchy of the memcg workload is mounted */
#define CGROOT "/sys/fs/cgroup"

static long long percpu_bytes(void)
{
	long long kb = field("/proc/meminfo", "Percpu");

	return kb < 0 ? -1 : kb * 1024;
}

/*
 * flush: stdout out to the console, and wait until the tty has sent it:
 * a printk in between (a module's taint warning, on another CPU) would
 * cut a line still in the tty's buffer, and its figure would be lost.
 */
static void flush(void)
{
	fflush(stdout);
	tcdrain(STDOUT_FILENO);
}

/*
 * ns: guest ns of CLOCK_MONOTONIC (under -icount: guest instructions,
 * plus the idle time that sleep=off skips).
 */
static long long ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* nap: sleep one guest millisecond, while a teardown runs in the kernel. */
static void nap(void)
{
	struct timespec ts = { 0, 1000000 };

	nanosleep(&ts, NULL);
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
	flush();
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
	flush();
	unload();
}

/*
 * wl_end: the figures of workload w, which ran n times from t0: the
 * count, its guest ns, and the per-cpu memory after it (Percpu: of
 * /proc/meminfo, cpu_bytes of /proc/vmstat when the kernel has it).
 */
static void wl_end(const char *w, int n, long long t0)
{
	long long t = ns() - t0, c = field("/proc/vmstat", "cpu_bytes");

	printf(PREFIX "workload/%s/count %d\n", w, n);
	printf(PREFIX "workload/%s/ns %lld\n", w, t);
	printf(PREFIX "workload/%s/percpu %lld\n", w, percpu_bytes());
	if (c >= 0)
		printf(PREFIX "workload/%s/cpu_bytes %lld\n", w, c);
	flush();
}

/*
 * netns_gone: wait until every network namespace made so far is torn
 * down (cleanup_net() runs on a workqueue, after the last reference is
 * gone).  The ucount of net namespaces drops only at the end of the
 * teardown: with max_net_namespaces at 1, unshare() fails with ENOSPC
 * until none is left.  The namespace of the probe that succeeds is put
 * again at once; its own teardown is not waited for.  0, or -1 after an
 * error line.
 */
static int netns_gone(int self)
{
	const char *max = "/proc/sys/user/max_net_namespaces";
	long long t0 = ns();
	char old[32];
	char *s = slurp(max);
	int rc = -1, err;

	if (!s) {
		printf(PREFIX "error netns: cannot read %s\n", max);
		return -1;
	}
	snprintf(old, sizeof(old), "%lld", atoll(s));
	err = write_file(max, "1");
	if (err) {
		printf(PREFIX "error netns: cannot write %s: %s\n", max, strerror(err));
		return -1;
	}
	for (;;) {
		if (!unshare(CLONE_NEWNET)) {
			rc = setns(self, CLONE_NEWNET) ? -2 : 0;
			break;
		}
		if (errno != ENOSPC) {
			printf(PREFIX "error netns: unshare(CLONE_NEWNET) while waiting: %s\n", strerror(errno));
			break;
		}
		if (ns() - t0 > TEARDOWN_SECS * 1000000000LL) {
			printf(PREFIX "error netns: namespaces not torn down after %d s\n", TEARDOWN_SECS);
			break;
		}
		nap();
	}
	if (rc == -2) {
		printf(PREFIX "error netns: setns() back to the first namespace: %s\n", strerror(errno));
		rc = -1;
	}
	write_file(max, old);
	return rc;
}

/*
 * wl_netns: create and destroy n network namespaces, one at a time:
 * unshare(CLONE_NEWNET) makes one (its SNMP MIBs, loopback device stats
 * and the like are per-cpu), setns() back to the first one drops it.
 * Timed until the last one is torn down.
 */
static void wl_netns(int n)
{
	int self = open("/proc/self/ns/net", O_RDONLY), i;
	long long t0;

	if (self < 0) {
		printf(PREFIX "error netns: no /proc/self/ns/net: %s\n", strerror(errno));
		return;
	}
	t0 = ns();
	for (i = 0; i < n; i++) {
		if (unshare(CLONE_NEWNET)) {
			printf(PREFIX "error netns: unshare(CLONE_NEWNET) #%d failed: %s\n", i + 1, strerror(errno));
			break;
		}
		if (setns(self, CLONE_NEWNET)) {
			printf(PREFIX "error netns: setns() back #%d failed: %s\n", i + 1, strerror(errno));
			break;
		}
	}
	if (i == n && !netns_gone(self))
		wl_end("netns", n, t0);
	close(self);
	flush();
}

/*
 * wl_memcg: create and destroy n memory cgroups (mkdir and rmdir in a
 * cgroup2 hierarchy with +memory in the root's subtree_control; each
 * memcg has per-cpu statistics).  Timed until cgroup.stat counts no
 * dying cgroup.
 */
static void wl_memcg(int n)
{
	char path[64];
	long long t0, t1, dying = -1;
	int i, err;

	if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL) && errno != EBUSY) {
		printf(PREFIX "error memcg: cannot mount cgroup2 on " CGROOT ": %s\n", strerror(errno));
		return;
	}
	err = write_file(CGROOT "/cgroup.subtree_control", "+memory");
	if (err) {
		printf(PREFIX "error memcg: cannot enable +memory in " CGROOT "/cgroup.subtree_control: %s\n",
		       strerror(err));
		return;
	}
	t0 = ns();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), CGROOT "/bench%d", i);
		if (mkdir(path, 0755)) {
			printf(PREFIX "error memcg: mkdir %s failed: %s\n", path, strerror(errno));
			return;
		}
		if (rmdir(path)) {
			printf(PREFIX "error memcg: rmdir %s failed: %s\n", path, strerror(errno));
			return;
		}
	}
	t1 = ns();
	while ((dying = field(CGROOT "/cgroup.stat", "nr_dying_descendants")) > 0 &&
	       ns() - t1 < TEARDOWN_SECS * 1000000000LL)
		nap();
	if (dying < 0) {
		printf(PREFIX "error memcg: no nr_dying_descendants in " CGROOT "/cgroup.stat\n");
		return;
	}
	if (dying) {
		printf(PREFIX "error memcg: %lld cgroups still dying after %d s\n", dying, TEARDOWN_SECS);
		return;
	}
	wl_end("memcg", n, t0);
}

/*
 * wl_module: load and unload /pcpu_static.ko n times (finit_module and
 * delete_module): its static per-cpu data is allocated and freed each
 * time, and its init fails unless that data works on every possible CPU.
 */
static void wl_module(int n)
{
	int fd = open("/pcpu_static.ko", O_RDONLY), i;
	long long t0;

	if (fd < 0) {
		printf(PREFIX "error module: no /pcpu_static.ko\n");
		return;
	}
	t0 = ns();
	for (i = 0; i < n; i++) {
		if (syscall(SYS_finit_module, fd, "", 0)) {
			printf(PREFIX "error module: finit_module(/pcpu_static.ko) #%d failed: %s\n", i + 1,
			       strerror(errno));
			break;
		}
		if (syscall(SYS_delete_module, "pcpu_static", O_NONBLOCK)) {
			printf(PREFIX "error module: delete_module(pcpu_static) #%d failed: %s\n", i + 1,
			       strerror(errno));
			break;
		}
	}
	close(fd);
	if (i == n)
		wl_end("module", n, t0);
	flush();
}

/* workloads: the per-cpu memory after boot, then each workload in turn. */
static void workloads(int quick)
{
	long long c = field("/proc/vmstat", "cpu_bytes");

	printf(PREFIX "workload/start/percpu %lld\n", percpu_bytes());
	if (c >= 0)
		printf(PREFIX "workload/start/cpu_bytes %lld\n", c);
	flush();
	wl_netns(quick ? NETNS_QUICK : NETNS_N);
	wl_memcg(quick ? MEMCG_QUICK : MEMCG_N);
	wl_module(quick ? MODULE_QUICK : MODULE_N);
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
	if (env_num("bench_workloads", 0)) {
		workloads(env_num("bench_quick", 0));
		printf(PREFIX "end\n");
		return end_vm();
	}
	printf(PREFIX "boot/ns_to_init %lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
	printf(PREFIX "mem/percpu_boot %lld\n", percpu_bytes());
	v = field("/proc/vmstat", "cpu_bytes");
	if (v >= 0)
		printf(PREFIX "mem/cpu_bytes_boot %lld\n", v);
	flush();

	mem("mem_pcpu", "alloc_percpu");
	mem("mem_ca", "cpu_alloc");
	snprintf(params, sizeof(params), "mode=bench quick=%d smp=%d align_size=%d",
		 q ? atoi(q) : 0, s ? atoi(s) : 0, al ? atoi(al) : 0);
	if (!load(params, 0))
		unload();
	printf(PREFIX "end\n");
	return end_vm();
}
