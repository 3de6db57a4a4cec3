// SPDX-License-Identifier: GPL-2.0-only
/*
 * PID 1 of the cpu_alloc boot test.
 *
 * Straight-line: mount what the checks read, run each check of the
 * subsystems present in this kernel, count KUnit results and splats in
 * the kernel log (facts: the host judges those), print one verdict
 * line, sync and end the VM.  The helpers it shares with
 * qemu/bench/init.c are in qemu/lib.h.
 *
 *   cpu_alloc-verdict: PASS cpus=4/4 kunit=12/0/0 splats=0 vmstat=ok ...
 *
 * The host (scripts/boot.sh) parses that line; a missing line is a
 * failure.  A check whose subsystem is absent reports "absent" and does
 * not fail.  Unknown key=value words of the kernel command line reach
 * init as environment variables: expect_cpus= says how many CPUs must
 * be online, cpu_alloc_users= how many converted files the kernel has
 * (then cpu_bytes in /proc/vmstat must be above 0).
 *
 * With CONFIG_CPU_ALLOC_STRESS_TEST the kernel has the debugfs tests of
 * /sys/kernel/debug/cpu_alloc_test/, and init runs them:
 *   stress   cpu_alloc_stress=N operations (default 1000000, 0 skips),
 *            stopped after cpu_alloc_stress_secs=S seconds if given (a
 *            run the limit stops passes with at least 1000 operations);
 *   hotplug  cpu_alloc_hotplug=K cycles (default 3, 0 skips) of taking
 *            every CPU but cpu0 offline and back online;
 *   leak     with kmemleak, one object leaked on purpose at the start
 *            must be reported by a kmemleak scan at the end.
 * Kernels without the directory report stress=absent and pass.
 *
 * With fail_cpu_alloc (CONFIG_FAIL_CPU_ALLOC), init makes the 1st, 2nd,
 * ... cpu_alloc() call of one operation fail through /proc/<tid>/fail-nth
 * until the operation makes no more calls, and after every attempt waits
 * for the allocator's object and byte counts to return to where they were:
 *   inject_kmem_cache  creating a kmem cache (SLUB's cpu_slab);
 *   inject_netns       unshare(CLONE_NEWNET) in a child (the SNMP MIBs);
 *   inject_loop        LOOP_CTL_ADD of a loop device (bdev_alloc());
 *   inject_memory      onlining a hot-added memory block into an empty
 *                      zone (setup_zone_pageset()), where the kernel has
 *                      the memory probe interface and the host passed
 *                      cpu_alloc_hotadd=<physical address> of hidden RAM.
 * Each reports <calls>/<failed>/<leaks>/<bad>: the cpu_alloc() calls the
 * operation makes, the injected attempts that returned an error, the
 * attempts after which the counts did not return, and operations that
 * failed without an injected failure or left state behind.
 * (The unwind of the mapping code, which only runs while the region
 * grows, is the KUnit case map_unwind: the exhaustion case after it
 * leaves the region mapped.)  numa= is the stress module's check that
 * every CPU's pages are on the CPU's node.
 *
 * nfs_server=ADDR:PORT (set by the host when it serves an export with
 * nfs-ganesha) makes init bring up eth0 as 10.0.2.15 (QEMU's user-mode
 * network), mount ADDR:/export with NFSv4.0, write, read back and
 * compare a file, and report the mount's I/O counters of
 * /proc/self/mountstats after the mount and after the I/O:
 *   nfs=ok:<bytes>-><bytes> nfs_events=<events>-><events>
 * (the sums of the "bytes:" and "events:" lines), nfs=noserver without
 * nfs_server=, nfs=absent without the NFS client.
 *
 * With dmatest and a DMA channel, init runs dmatest (dmatest_iterations=
 * copies per channel, default 200) and reports the tests and failures of
 * its summary lines and the channels' sysfs counters before and after:
 *   dmatest=<tests>/<failures>:memcpy_count=<a>-><b>,bytes=<c>-><d>
 * dmatest=absent without dmatest or without a channel.
 * With memory cgroups (CONFIG_MEMCG; cgroup v2 is mounted at
 * /sys/fs/cgroup with the memory controller enabled):
 *   memcg_percpu  a task in a new cgroup allocates one 4096 byte object
 *                 with GFP_KERNEL_ACCOUNT (debugfs "account"): the
 *                 cgroup's "percpu" must grow by 4096 x possible CPUs and
 *                 come back after the free; absent without the file;
 *   unpriv        uid 1000, owning a delegated cgroup subtree, creates
 *                 user and network namespaces in children that enter its
 *                 8M-limited leaf, and holds them (as descriptors handed
 *                 over by each child) from an unlimited leaf until a
 *                 creation fails; then root creates a netns, a loop
 *                 device and a kmem cache, everything is released, and
 *                 cpu_bytes must come back (unpriv_*: see check_unpriv());
 *   test_kmem     the kernel's tools/testing/selftests/cgroup/test_kmem,
 *                 which the host built statically into the initramfs
 *                 (with qemu/test_kmem_main.c's main()):
 *                 test_kmem=<pass>/<fail>/<skip>, test_percpu_basic=,
 *                 test_kmem_failed=<name>,... or none, test_kmem_flaky=
 *                 (failed, then passed when run again; kmem_xfail= names
 *                 the failures that need no second run),
 *                 test_kmem_skipped= (kmem_skip= names the tests not to
 *                 run), test_kmem_ms= (the time of the tests that ran);
 *   root_netns    only with cpu_alloc_root_netns=N on the command line:
 *                 how many network namespaces root holds at once.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <linux/aio_abi.h>
#include <linux/loop.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <grp.h>
#include <sched.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "lib.h"

#define PREFIX "cpu_alloc-init: "
#define TESTDIR "/sys/kernel/debug/cpu_alloc_test"
#define KMEMLEAK "/sys/kernel/debug/kmemleak"

static char verdict[4096];
static int failed;

static void logmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs(PREFIX, stdout);
	vprintf(fmt, ap);
	fputc('\n', stdout);
	fflush(stdout);
	va_end(ap);
}

/* result: append "key=value" to the verdict; bad marks the run failed. */
static void result(int bad, const char *key, const char *fmt, ...)
{
	size_t n = strlen(verdict);
	va_list ap;

	n += snprintf(verdict + n, sizeof(verdict) - n, " %s=", key);
	va_start(ap, fmt);
	vsnprintf(verdict + n, sizeof(verdict) - n, fmt, ap);
	va_end(ap);
	if (bad) {
		failed = 1;
		logmsg("check %s failed", key);
	}
}

/* kv: the number after "key=" in a "k=v k=v" line; 0 if there, else -1 and *v = -1. */
static int kv(const char *line, const char *key, long long *v)
{
	size_t l = strlen(key);
	const char *p;

	for (p = line; (p = strstr(p, key)); p += l)
		if ((p == line || p[-1] == ' ') && p[l] == '=') {
			*v = strtoll(p + l + 1, NULL, 0);
			return 0;
		}
	*v = -1;
	return -1;
}

/*
 * snmp_get: a counter of a /proc/net/snmp style file, where a header
 * line "Tag: A B C" is followed by a value line "Tag: 1 2 3", or of a
 * /proc/net/snmp6 style file of "Name value" lines.  -1 when absent.
 */
static long long snmp_get(const char *path, const char *tag, const char *field)
{
	char *s = slurp(path), *line, *save, *hdr = NULL;
	size_t tl = strlen(tag);

	if (!s)
		return -1;
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!*tag) {
			char name[128];
			long long v;

			if (sscanf(line, "%127s %lld", name, &v) == 2 && !strcmp(name, field))
				return v;
			continue;
		}
		if (strncmp(line, tag, tl) || line[tl] != ':')
			continue;
		if (!hdr) {
			hdr = line;
			continue;
		}
		/* line holds the values of the field names in hdr */
		{
			char *h, *v, *hs, *vs;
			int i = 0;

			for (h = strtok_r(hdr + tl + 1, " ", &hs), v = strtok_r(line + tl + 1, " ", &vs);
			     h && v; h = strtok_r(NULL, " ", &hs), v = strtok_r(NULL, " ", &vs), i++)
				if (!strcmp(h, field))
					return atoll(v);
		}
		return -1;
	}
	return -1;
}

/*
 * cpulist: the number of CPUs in a cpu list file ("0-3,5"); the first
 * max of them are stored in cpus, if given.
 */
static int cpulist(const char *path, int *cpus, int max)
{
	char *s = slurp(path), *p = s;
	int n = 0, c;

	while (p && *p && *p != '\n') {
		int a = strtol(p, &p, 10), b = a;

		if (*p == '-')
			b = strtol(p + 1, &p, 10);
		for (c = a; c <= b; c++, n++)
			if (cpus && n < max)
				cpus[n] = c;
		if (*p == ',')
			p++;
	}
	return n;
}

static int count_cpus(const char *path)
{
	return cpulist(path, NULL, 0);
}

static void check_cpus(void)
{
	const char *want = getenv("expect_cpus");
	int online = count_cpus("/sys/devices/system/cpu/online");
	int possible = count_cpus("/sys/devices/system/cpu/possible");

	if (want)
		result(online != atoi(want), "cpus", "%d/%s", online, want);
	else
		result(online < 1, "cpus", "%d", online);
	result(0, "possible", "%d", possible);
}

static void check_vmstat(void)
{
	const char *users = getenv("cpu_alloc_users");
	long long bytes;

	if (field("/proc/vmstat", "nr_free_pages") < 0) {
		result(1, "vmstat", "unreadable");
		return;
	}
	result(0, "vmstat", "ok");
	bytes = field("/proc/vmstat", "cpu_bytes");
	if (bytes < 0)
		result(0, "cpu_bytes", "absent");
	else if (users && atoi(users) > 0)
		/* converted subsystems allocate from cpu_alloc at boot */
		result(bytes <= 0, "cpu_bytes", "%lld", bytes);
	else
		result(0, "cpu_bytes", "%lld", bytes);
}

/* diskstats_reads: completed reads of vda in /proc/diskstats, or -1. */
static long long diskstats_reads(void)
{
	char *s = slurp("/proc/diskstats"), *p;

	for (p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		unsigned int maj, min;
		char name[64];
		long long rd;

		if (sscanf(p, "%u %u %63s %lld", &maj, &min, name, &rd) == 4 &&
		    !strcmp(name, "vda"))
			return rd;
	}
	return -1;
}

static void check_diskstats(void)
{
	long long before = diskstats_reads(), after;
	static char buf[1 << 16];
	int fd, i;

	if (before < 0) {
		result(1, "diskstats", "no-vda");
		return;
	}
	fd = open("/dev/vda", O_RDONLY);
	if (fd < 0) {
		result(1, "diskstats", "open-%d", errno);
		return;
	}
	/* 1 MiB past the first page cache reads, in 64 KiB requests. */
	for (i = 0; i < 16; i++)
		if (pread(fd, buf, sizeof(buf), (off_t)i * sizeof(buf)) <= 0)
			break;
	close(fd);
	after = diskstats_reads();
	result(after <= before, "diskstats", "%lld->%lld", before, after);
}

static void lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		return;
	if (!ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
}

/* udp_loop: send n datagrams to ourselves on loopback; received count. */
static int udp_loop(int family, int n)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t len;
	struct timeval tv = { .tv_sec = 1 };
	char msg[32] = "cpu_alloc", rbuf[32];
	int fd, i, got = 0;

	fd = socket(family, SOCK_DGRAM, 0);
	if (fd < 0)
		return -1;
	if (family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;

		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		len = sizeof(*a);
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(fd, (struct sockaddr *)&ss, len) ||
	    getsockname(fd, (struct sockaddr *)&ss, &len)) {
		close(fd);
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (sendto(fd, msg, sizeof(msg), 0, (struct sockaddr *)&ss, len) < 0)
			break;
		if (recv(fd, rbuf, sizeof(rbuf), 0) > 0)
			got++;
	}
	close(fd);
	return got;
}

static unsigned short csum(const void *data, int len)
{
	const unsigned short *p = data;
	unsigned int sum = 0;

	for (; len > 1; len -= 2)
		sum += *p++;
	if (len)
		sum += *(const unsigned char *)p;
	sum = (sum >> 16) + (sum & 0xffff);
	sum += sum >> 16;
	return ~sum;
}

/* icmp_loop: ping 127.0.0.1 n times over a raw socket; replies seen. */
static int icmp_loop(int n)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	struct timeval tv = { .tv_sec = 1 };
	char rbuf[256];
	int fd, i, got = 0;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	for (i = 0; i < n; i++) {
		struct icmphdr h = { .type = ICMP_ECHO };

		h.un.echo.id = htons(0xca);
		h.un.echo.sequence = htons(i);
		h.checksum = csum(&h, sizeof(h));
		if (sendto(fd, &h, sizeof(h), 0, (struct sockaddr *)&a, sizeof(a)) < 0)
			break;
		/* the raw socket sees our request and the reply */
		while (recv(fd, rbuf, sizeof(rbuf), 0) > 0) {
			struct icmphdr *r = (struct icmphdr *)(rbuf + ((rbuf[0] & 0xf) << 2));

			if (r->type == ICMP_ECHOREPLY) {
				got++;
				break;
			}
		}
	}
	close(fd);
	return got;
}

static void check_snmp(void)
{
	long long u0, u1, i0, i1;
	int got;

	lo_up();
	u0 = snmp_get("/proc/net/snmp", "Udp", "InDatagrams");
	i0 = snmp_get("/proc/net/snmp", "Icmp", "InEchoReps");
	if (u0 < 0) {
		result(1, "snmp", "unreadable");
		return;
	}
	got = udp_loop(AF_INET, 8);
	u1 = snmp_get("/proc/net/snmp", "Udp", "InDatagrams");
	result(got != 8 || u1 - u0 < 8, "snmp_udp", "%lld->%lld", u0, u1);
	got = icmp_loop(4);
	i1 = snmp_get("/proc/net/snmp", "Icmp", "InEchoReps");
	result(got != 4 || i1 - i0 < 4, "snmp_icmp", "%lld->%lld", i0, i1);

	u0 = snmp_get("/proc/net/snmp6", "", "Udp6InDatagrams");
	if (u0 < 0) {
		result(0, "snmp6", "absent");
		return;
	}
	got = udp_loop(AF_INET6, 8);
	u1 = snmp_get("/proc/net/snmp6", "", "Udp6InDatagrams");
	result(got != 8 || u1 - u0 < 8, "snmp6_udp", "%lld->%lld", u0, u1);
}

/* if_setup: give ifname the IPv4 address addr/mask and bring it up; 0 or errno. */
static int if_setup(const char *ifname, const char *addr, const char *mask)
{
	struct ifreq ifr = { 0 };
	struct sockaddr_in *sin = (struct sockaddr_in *)&ifr.ifr_addr;
	int fd = socket(AF_INET, SOCK_DGRAM, 0), err = 0;
	char path[96];

	if (fd < 0)
		return errno;
	/*
	 * IPv4 only: IPv6 autoconfiguration would add the link-local
	 * address's routes, each with an 8-byte per-cpu route cache, a
	 * second or two later (after duplicate address detection), at a
	 * time no check controls.  check_generic() saw six such objects
	 * appear in the middle of its count.
	 */
	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/disable_ipv6", ifname);
	if (!access(path, F_OK))
		write_file(path, "1");
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	sin->sin_family = AF_INET;
	inet_pton(AF_INET, addr, &sin->sin_addr);
	if (ioctl(fd, SIOCSIFADDR, &ifr))
		err = errno;
	inet_pton(AF_INET, mask, &sin->sin_addr);
	if (!err && ioctl(fd, SIOCSIFNETMASK, &ifr))
		err = errno;
	if (!err && ioctl(fd, SIOCGIFFLAGS, &ifr))
		err = errno;
	ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
	if (!err && ioctl(fd, SIOCSIFFLAGS, &ifr))
		err = errno;
	close(fd);
	return err;
}

/*
 * nfs_counters: the sums of the first six numbers of the "bytes:" line
 * (normal, direct and server read and write bytes) and of the "events:"
 * line of the mount on dir in /proc/self/mountstats; -1 if not found.
 */
static void nfs_counters(const char *dir, long long *bytes, long long *events)
{
	char *s = slurp("/proc/self/mountstats"), *p, *end, want[128];

	*bytes = *events = -1;
	snprintf(want, sizeof(want), " mounted on %s with fstype nfs", dir);
	p = s ? strstr(s, want) : NULL;
	if (!p)
		return;
	/* this mount's lines end where the next "device " line starts */
	end = strstr(p + 1, "\ndevice ");
	for (; p && *p && (!end || p < end); p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		const char *q = p + strspn(p, " \t");
		long long *sum = NULL, v;
		int i, max = 0, n;

		if (!strncmp(q, "bytes:", 6))
			sum = bytes, max = 6, q += 6;
		else if (!strncmp(q, "events:", 7))
			sum = events, max = 1000, q += 7;
		if (!sum)
			continue;
		*sum = 0;
		for (i = 0; i < max && sscanf(q, "%lld%n", &v, &n) == 1; i++, q += n)
			*sum += v;
	}
}

/* fs_has: the kernel knows file system type name (/proc/filesystems). */
static int fs_has(const char *name)
{
	char *s = slurp("/proc/filesystems"), *p, want[64];

	snprintf(want, sizeof(want), "\t%s\n", name);
	p = s ? strstr(s, want) : NULL;
	return p != NULL;
}

#define NFS_DIR "/mnt"
#define NFS_FILE_SIZE (256 << 10)

/* nfs_io: write a file on the mount, read it back with O_DIRECT (from the server), compare. */
static const char *nfs_io(int *err)
{
	static char wbuf[NFS_FILE_SIZE];
	char *rbuf = NULL;
	int fd, i;
	ssize_t n;

	for (i = 0; i < NFS_FILE_SIZE; i++)
		wbuf[i] = (char)(i * 7 + i / 4096);
	*err = 0;
	fd = open(NFS_DIR "/cpu_alloc.dat", O_CREAT | O_TRUNC | O_WRONLY, 0644);
	if (fd < 0)
		return *err = errno, "create";
	n = write(fd, wbuf, sizeof(wbuf));
	if (n != (ssize_t)sizeof(wbuf) || fsync(fd))
		*err = n < 0 ? errno : EIO;
	close(fd);
	if (*err)
		return "write";
	if (posix_memalign((void **)&rbuf, 4096, sizeof(wbuf)))
		return *err = ENOMEM, "read";
	fd = open(NFS_DIR "/cpu_alloc.dat", O_RDONLY | O_DIRECT);
	if (fd < 0) {
		free(rbuf);
		return *err = errno, "open";
	}
	n = read(fd, rbuf, sizeof(wbuf));
	if (n != (ssize_t)sizeof(wbuf))
		*err = n < 0 ? errno : EIO;
	close(fd);
	if (!*err && memcmp(rbuf, wbuf, sizeof(wbuf)))
		*err = EILSEQ;
	free(rbuf);
	if (*err)
		return *err == EILSEQ ? "verify" : "read";
	if (unlink(NFS_DIR "/cpu_alloc.dat"))
		return *err = errno, "unlink";
	return NULL;
}

/* nfs_transient: a mount error that a link or server still coming up explains */
static int nfs_transient(int err)
{
	return err == EHOSTUNREACH || err == ENETUNREACH || err == ECONNREFUSED ||
	       err == ETIMEDOUT || err == EIO;
}

/* retries of a mount that failed transiently, 2 s apart */
#define NFS_MOUNT_RETRIES 15

static void check_nfs(void)
{
	const char *srv = getenv("nfs_server");
	char addr[64], opts[256], src[96], *colon;
	long long b0, b1, e0, e1;
	const char *what;
	int err, i;

	if (!fs_has("nfs")) {
		result(0, "nfs", "absent");
		return;
	}
	if (!srv || !*srv) {
		/* the host judges whether that is allowed (NFS=0) */
		result(0, "nfs", "noserver");
		return;
	}
	snprintf(addr, sizeof(addr), "%s", srv);
	colon = strchr(addr, ':');
	if (colon)
		*colon = 0;
	err = if_setup("eth0", "10.0.2.15", "255.255.255.0");
	if (err) {
		result(1, "nfs", "eth0-%d", err);
		return;
	}
	snprintf(src, sizeof(src), "%s:/export", addr);
	snprintf(opts, sizeof(opts),
		 "vers=4.0,addr=%s,clientaddr=10.0.2.15,port=%s,proto=tcp,soft,timeo=100,retrans=3",
		 addr, colon ? colon + 1 : "2049");
	mkdir(NFS_DIR, 0755);
	/*
	 * A debug kernel under TCG can take tens of seconds to probe the NIC
	 * and raise its link: the first mount then fails with no route to
	 * the server (EHOSTUNREACH, seen once in CI).  Wait for the carrier,
	 * then retry for about 30 s what a link coming up explains.
	 */
	for (i = 0; i < 300; i++) {
		char *s = slurp("/sys/class/net/eth0/carrier");

		if (s && atoi(s) == 1)
			break;
		usleep(100 * 1000);
	}
	for (i = 0; mount(src, NFS_DIR, "nfs", 0, opts); i++) {
		int again;

		err = errno;
		again = i < NFS_MOUNT_RETRIES && nfs_transient(err);
		logmsg("nfs: mount %s (%s): error %d%s", src, opts, err,
		       again ? ", again in 2 s" : "");
		if (!again) {
			result(1, "nfs", "mount-%d", err);
			return;
		}
		sleep(2);
	}
	if (i)
		logmsg("nfs: mounted after %d retries", i);
	nfs_counters(NFS_DIR, &b0, &e0);
	what = nfs_io(&err);
	nfs_counters(NFS_DIR, &b1, &e1);
	if (umount(NFS_DIR))
		logmsg("nfs: umount: error %d", errno);
	if (what) {
		logmsg("nfs: %s: error %d", what, err);
		result(1, "nfs", "%s-%d", what, err);
		return;
	}
	logmsg("nfs: %s bytes %lld->%lld events %lld->%lld", src, b0, b1, e0, e1);
	result(b0 < 0 || b1 <= b0, "nfs", "ok:%lld->%lld", b0, b1);
	result(e0 < 0 || e1 <= e0, "nfs_events", "%lld->%lld", e0, e1);
}

/* dma_counters: the sums of memcpy_count and bytes_transferred of every channel; channels. */
static int dma_counters(long long *count, long long *bytes)
{
	DIR *d = opendir("/sys/class/dma");
	struct dirent *e;
	char path[300];
	int n = 0;
	long long v;

	*count = *bytes = 0;
	while (d && (e = readdir(d))) {
		char *s;

		if (strncmp(e->d_name, "dma", 3) || !strstr(e->d_name, "chan"))
			continue;
		n++;
		snprintf(path, sizeof(path), "/sys/class/dma/%s/memcpy_count", e->d_name);
		s = slurp(path);
		v = s ? atoll(s) : 0;
		*count += v;
		snprintf(path, sizeof(path), "/sys/class/dma/%s/bytes_transferred", e->d_name);
		s = slurp(path);
		v = s ? atoll(s) : 0;
		*bytes += v;
	}
	if (d)
		closedir(d);
	return n;
}

/* dmatest_summary: the tests and failures of dmatest's "summary" lines in the kernel log. */
static int dmatest_summary(long long *tests, long long *failures)
{
	static char buf[1 << 21];
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), lines = 0;
	char *p;

	*tests = *failures = 0;
	if (n <= 0 || n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n);
	if (n < 0)
		return -1;
	buf[n] = 0;
	for (p = buf; (p = strstr(p, ": summary ")); p++) {
		long long t, f;

		if (sscanf(p, ": summary %lld tests, %lld failures", &t, &f) == 2) {
			*tests += t;
			*failures += f;
			lines++;
		}
	}
	return lines;
}

static void check_dmatest(void)
{
	long long iters = env_num("dmatest_iterations", 200);
	long long c0, c1, b0, b1, tests, failures;
	char num[32];
	int chans, lines, err;
	double t0;

	chans = dma_counters(&c0, &b0);
	if (access("/sys/module/dmatest/parameters/run", W_OK) || chans == 0) {
		result(0, "dmatest", "absent");
		return;
	}
	snprintf(num, sizeof(num), "%lld", iters);
	t0 = now();
	err = write_file("/sys/module/dmatest/parameters/iterations", num);
	if (!err)
		err = write_file("/sys/module/dmatest/parameters/run", "1");
	if (err) {
		result(1, "dmatest", "error-%d", err);
		return;
	}
	/*
	 * Reading wait blocks until every test thread has ended, but a
	 * thread counts as neither running nor pending between its
	 * wake-up and its first instruction (dmatest_func() clears
	 * ->pending), so wait can return before any test ran.  Each
	 * thread (one per channel) prints one summary line when it ends:
	 * wait for all of them, for at most a minute.
	 */
	do {
		slurp("/sys/module/dmatest/parameters/wait");
		lines = dmatest_summary(&tests, &failures);
		if (lines >= chans)
			break;
		usleep(100 * 1000);
	} while (now() - t0 < 60);
	dma_counters(&c1, &b1);
	logmsg("dmatest: %d channels, %d summaries, %lld tests, %lld failures in %.1fs",
	       chans, lines, tests, failures, now() - t0);
	result(tests <= 0 || failures || c1 <= c0 || b1 <= b0, "dmatest",
	       "%lld/%lld:memcpy_count=%lld->%lld,bytes=%lld->%lld",
	       tests, failures, c0, c1, b0, b1);
}

/*
 * The tests of /sys/kernel/debug/cpu_alloc_test/.  leak_start() runs
 * first, so that the object is older than kmemleak's minimum age (5 s)
 * when check_kmemleak() scans after the stress and hotplug tests.
 */
static struct {
	int done;		/* leaked, value known */
	int err;		/* errno of the leak write */
	unsigned long val;	/* the leaked __percpu value */
	unsigned long first;	/* the one leaked before it, if any */
	double when;
} leak;

static void leak_start(void)
{
	char *s;

	if (access(TESTDIR, F_OK) || access(KMEMLEAK, F_OK))
		return;
	leak.err = write_file(TESTDIR "/leak", "1");
	leak.when = now();
	if (leak.err)
		return;
	s = slurp(TESTDIR "/leak");
	if (s && !strncmp(s, "leak=0x", 7)) {
		leak.val = strtoul(s + 5, NULL, 16);
		leak.done = 1;
		logmsg("leaked 0x%lx on purpose for kmemleak", leak.val);
	}
}

static void check_stress(void)
{
	long long n = env_num("cpu_alloc_stress", 1000000);
	long long secs = env_num("cpu_alloc_stress_secs", 0), timed_out = 0;
	long long ops, corrupt, leaked, objs, bytes, proc, soft, hard, null, knull, ms, foreign;
	char num[48], line[512];
	char *s;
	int err, bad;

	if (access(TESTDIR, F_OK)) {
		result(0, "stress", "absent");
		return;
	}
	if (n <= 0) {
		result(0, "stress", "skipped");
		return;
	}
	if (secs > 0) {
		snprintf(num, sizeof(num), "%lld %lld", n, secs);
		logmsg("stress: %lld operations, at most %lld s", n, secs);
	} else {
		snprintf(num, sizeof(num), "%lld", n);
		logmsg("stress: %lld operations", n);
	}
	err = write_file(TESTDIR "/stress", num);
	s = slurp(TESTDIR "/stress");
	if (err || !s) {
		result(1, "stress", "error-%d", err ? err : errno);
		return;
	}
	snprintf(line, sizeof(line), "%s", s);
	line[strcspn(line, "\n")] = 0;
	logmsg("stress: %s", line);
	bad = kv(line, "ops", &ops) | kv(line, "corrupt", &corrupt) |
	      kv(line, "leaked_units", &leaked) | kv(line, "objects_delta", &objs) |
	      kv(line, "cpu_bytes_delta", &bytes) | kv(line, "process", &proc) |
	      kv(line, "softirq", &soft) | kv(line, "hardirq", &hard) |
	      kv(line, "atomic_null", &null) | kv(line, "kernel_null", &knull) |
	      kv(line, "ms", &ms);
	/*
	 * Calls of other users meanwhile (-1: not known, before the series
	 * counted them or without the KUnit suite): the kernel's own
	 * alloc_percpu() calls once cpu_alloc serves them.  With any, the
	 * deltas of the statistics are not the run's and are not judged;
	 * the allocator's bookkeeping check (corrupt) still is.
	 */
	kv(line, "foreign_ops", &foreign);
	/*
	 * Stopped by the time limit (kernels before it have no timed_out=):
	 * every check holds for the operations made, and there must be some.
	 */
	kv(line, "timed_out", &timed_out);
	bad = bad || (timed_out ? ops < (n < 1000 ? n : 1000) : ops < n) ||
	      corrupt || (foreign <= 0 && leaked) || knull ||
	      strstr(line, "error=");
	result(bad, "stress", "%lld/%lld/%lld", ops, corrupt, leaked);
	result(0, "stress_ctx", "%lld/%lld/%lld", proc, soft, hard);
	result(knull != 0, "stress_null", "%lld/%lld", null, knull);
	result(foreign <= 0 && (objs || bytes), "stress_delta", "%lld/%lld", objs, bytes);
	result(0, "stress_foreign", "%lld", foreign);
	result(0, "stress_ms", "%lld", ms);
	result(0, "stress_timed_out", "%lld", timed_out);
}

/* set_online: write 0 or 1 to cpuN/online; 0, or the errno. */
static int set_online(int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return write_file(path, on ? "1" : "0");
}

static void check_hotplug(void)
{
	long long cycles = env_num("cpu_alloc_hotplug", 3);
	int online = count_cpus("/sys/devices/system/cpu/online");
	long long incs, sum, exact, seen, checks, off, bad;
	int all[64], cpus[64], nall, n = 0, c, i, errs = 0, after, err;
	char path[64], line[256], *s;
	double t0;

	if (access(TESTDIR, F_OK))
		return;
	if (online < 2 || access("/sys/devices/system/cpu/cpu1/online", F_OK)) {
		result(0, "hotplug", "%s", online < 2 ? "1cpu" : "absent");
		return;
	}
	if (cycles <= 0) {
		result(0, "hotplug", "skipped");
		return;
	}
	/* the online CPUs that can go offline: all but cpu0 */
	nall = cpulist("/sys/devices/system/cpu/online", all, 64);
	for (i = 0; i < nall && i < 64; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", all[i]);
		if (all[i] && !access(path, W_OK))
			cpus[n++] = all[i];
	}
	t0 = now();
	err = write_file(TESTDIR "/hotplug", "start");
	if (err) {
		result(1, "hotplug", "start-error-%d", err);
		return;
	}
	for (c = 0; c < cycles; c++) {
		for (i = n - 1; i >= 0; i--)
			if ((err = set_online(cpus[i], 0))) {
				logmsg("hotplug: cpu%d offline: error %d", cpus[i], err);
				errs++;
			}
		if (write_file(TESTDIR "/hotplug", "check"))
			errs++;
		for (i = 0; i < n; i++)
			if ((err = set_online(cpus[i], 1))) {
				logmsg("hotplug: cpu%d online: error %d", cpus[i], err);
				errs++;
			}
		if (write_file(TESTDIR "/hotplug", "check"))
			errs++;
	}
	if (write_file(TESTDIR "/hotplug", "stop"))
		errs++;
	s = slurp(TESTDIR "/hotplug");
	snprintf(line, sizeof(line), "%s", s ? s : "");
	line[strcspn(line, "\n")] = 0;
	logmsg("hotplug: %lld cycles of %d CPUs in %.1fs: %s", cycles, n, now() - t0, line);
	kv(line, "incs", &incs);
	kv(line, "sum", &sum);
	kv(line, "exact", &exact);
	kv(line, "cpus_seen", &seen);
	kv(line, "checks", &checks);
	kv(line, "offline_checks", &off);
	kv(line, "bad", &bad);
	result(exact != 1 || bad != 0 || errs || incs <= 0, "hotplug", "%lld/%lld/%lld",
	       cycles, exact, bad);
	result(errs != 0, "hotplug_errors", "%d", errs);
	result(0, "hotplug_incs", "%lld", incs);
	result(0, "hotplug_cpus_seen", "%lld", seen);
	result(0, "hotplug_offline_checks", "%lld", off);
	result(0, "hotplug_ms", "%.0f", (now() - t0) * 1000);
	after = count_cpus("/sys/devices/system/cpu/online");
	result(after != online, "cpus_after", "%d/%d", after, online);
}

/* kmemleak_find: scan; 1 if the leaked object is reported; *others = other reports. */
/* the longest of the scans kmemleak_find() asked for, in ms */
static double scan_ms;

static int kmemleak_find(int *others, int *err)
{
	char want[64], old[64], *s, *p;
	int found = 0;
	double t = now();

	*err = write_file(KMEMLEAK, "scan");
	t = (now() - t) * 1e3;
	if (t > scan_ms)
		scan_ms = t;
	s = slurp(KMEMLEAK);
	*others = 0;
	if (!s)
		return 0;
	snprintf(want, sizeof(want), "unreferenced object 0x%08lx ", leak.val);
	snprintf(old, sizeof(old), "unreferenced object 0x%08lx ", leak.first);
	for (p = s; (p = strstr(p, "unreferenced object 0x")); p++) {
		size_t l = strcspn(p, "\n");

		if (!strncmp(p, want, strlen(want))) {
			found = 1;
			continue;
		}
		/* the object a retry gave up on is ours too */
		if (leak.first && !strncmp(p, old, strlen(old)))
			continue;
		/* the header and the backtrace, not the hex dump */
		(*others)++;
		if (*others <= 5) {
			char *bt = strstr(p, "backtrace:"), *e;
			int k;

			logmsg("kmemleak also reports: %.*s", (int)(l < 80 ? l : 80), p);
			for (k = 0; bt && k < 10; k++) {
				bt += strcspn(bt, "\n");
				if (*bt++ != '\n' || strncmp(bt, "    [", 5))
					break;
				e = bt + strcspn(bt, "\n");
				logmsg("kmemleak   %.*s", (int)(e - bt < 100 ? e - bt : 100), bt);
			}
		}
	}
	return found;
}

/* kmemleak_dump: kmemleak prints what it knows of object VAL to the kernel log. */
static void kmemleak_dump(unsigned long val)
{
	char cmd[64];

	snprintf(cmd, sizeof(cmd), "dump=0x%lx", val);
	write_file(KMEMLEAK, cmd);
}

static void check_kmemleak(void)
{
	int found, others = 0, err = 0, i;
	double wait;

	if (access(KMEMLEAK, F_OK)) {
		if (!access(TESTDIR, F_OK))
			result(0, "kmemleak", "off");
		return;
	}
	if (access(TESTDIR, F_OK)) {
		/* no leak to plant (the base): time three scans, count reports */
		for (i = 0; i < 3; i++)
			kmemleak_find(&others, &err);
		result(err != 0, "kmemleak", "%s", err ? "scan-error" : "no-test");
		result(0, "kmemleak_others", "%d", others);
		result(0, "kmemleak_scan_ms", "%.0f", scan_ms);
		return;
	}
	if (!leak.done) {
		result(1, "kmemleak", "leak-error-%d", leak.err);
		return;
	}
	/* kmemleak reports objects older than 5 s only */
	wait = leak.when + 6 - now();
	if (wait > 0)
		usleep((useconds_t)(wait * 1e6));
	/*
	 * A new object is reported from its second scan on (kmemleak first
	 * takes its checksum), and a stale copy of the value on a stack can
	 * hide it for a while: scan up to 5 times.
	 */
	found = kmemleak_find(&others, &err);
	for (i = 0; i < 4 && !found; i++) {
		sleep(2);
		found = kmemleak_find(&others, &err);
	}
	/*
	 * The value is a small offset into the cpu area: an integer equal to
	 * it anywhere in scanned memory is a reference to kmemleak (seen
	 * once, under a loaded host: "count = 1").  Leak a second object,
	 * at another offset, and look for that one.
	 */
	if (!found && !err) {
		unsigned long first = leak.val;

		kmemleak_dump(leak.val);
		leak_start();
		if (leak.done && leak.val != first) {
			leak.first = first;
			logmsg("kmemleak: 0x%lx not reported (referenced?): leaked 0x%lx instead", first, leak.val);
			sleep(6);
			for (i = 0; i < 5 && !found; i++) {
				if (i)
					sleep(2);
				found = kmemleak_find(&others, &err);
			}
		}
	}
	if (err)
		logmsg("kmemleak: scan: error %d", err);
	if (!found)
		kmemleak_dump(leak.val);
	logmsg("kmemleak: 0x%lx %s, %d other objects reported", leak.val,
	       found ? "found" : "not found", others);
	result(!found, "kmemleak", "%s", found ? "found" : "missing");
	result(0, "kmemleak_others", "%d", others);
	result(0, "kmemleak_scan_ms", "%.0f", scan_ms);
}

/* --- injected failures (fail_cpu_alloc) -------------------------------- */

#define FAILDIR "/sys/kernel/debug/fail_cpu_alloc"
#define CA_STATS "/sys/kernel/debug/cpu_alloc/stats"

static int fail_nth(int n)
{
	char num[16];

	snprintf(num, sizeof(num), "%d", n);
	return write_file("/proc/thread-self/fail-nth", num);
}

/* what is left of fail-nth: 0 once the failure was injected */
static long long fail_nth_left(void)
{
	char *s = slurp("/proc/thread-self/fail-nth");

	return s ? atoll(s) : -1;
}

/* wait up to 10 s for the object and byte counts to be o and b again */
static int ca_counts_back(long long o, long long b)
{
	int i;

	for (i = 0; i < 1000; i++) {
		if (field(CA_STATS, "objects in use") == o &&
		    field(CA_STATS, "bytes in use") == b)
			return 1;
		usleep(10000);
	}
	return 0;
}

/* an operation: 0 or -errno; *left gets what is left of fail-nth */
typedef int (*inject_op)(int nth, long long *left);

static int op_write(const char *path, const char *val, int nth, long long *left)
{
	int err;

	fail_nth(nth);
	err = write_file(path, val);
	*left = fail_nth_left();
	fail_nth(0);
	return -err;
}

static int op_kmem_cache(int nth, long long *left)
{
	return op_write(TESTDIR "/kmem_cache", "1", nth, left);
}

/* in a child, which leaves the namespace (and the kernel frees it) on exit */
static int op_netns(int nth, long long *left)
{
	int status, r;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		fail_nth(nth);
		r = unshare(CLONE_NEWNET) ? errno : 0;
		_exit((r & 0x7f) | (fail_nth_left() ? 0 : 0x80));
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -ECHILD;
	*left = WEXITSTATUS(status) & 0x80 ? 0 : 1;
	return -(WEXITSTATUS(status) & 0x7f);
}

#define LOOP_INDEX 100

static int op_loop(int nth, long long *left)
{
	int fd = open("/dev/loop-control", O_RDWR), r;

	if (fd < 0)
		return -errno;
	fail_nth(nth);
	r = ioctl(fd, LOOP_CTL_ADD, LOOP_INDEX) < 0 ? -errno : 0;
	*left = fail_nth_left();
	fail_nth(0);
	if (!r && ioctl(fd, LOOP_CTL_REMOVE, LOOP_INDEX) < 0)
		r = -errno;
	close(fd);
	return r;
}

static char mem_state[96];

static int op_memory(int nth, long long *left)
{
	int r = op_write(mem_state, "online_movable", nth, left);

	if (!r && write_file(mem_state, "offline"))
		return -EBUSY;
	return r;
}

/*
 * Fail the 1st, 2nd, ... cpu_alloc() call of op until op makes no more
 * calls; report <calls>/<failed>/<leaks>/<bad>.  Since cpu_alloc serves
 * alloc_percpu(), the rest of the kernel allocates beside the operation
 * (RCU and workqueues finish the frees of earlier checks; until the guest
 * disabled IPv6 on eth0, IPv6 added routes with per-cpu caches): an
 * attempt after which the counts do not return is made once more from
 * where they are then, and is a leak only if they do not return again.
 */
static void inject(const char *key, inject_op op)
{
	long long o, b, left;
	int n, r, try, back, calls = -1, failed = 0, leaks = 0, bad = 0, others = 0;

	for (n = 1; n <= 256 && calls < 0; n++) {
		for (try = 0; try < 2; try++) {
			o = field(CA_STATS, "objects in use");
			b = field(CA_STATS, "bytes in use");
			r = op(n, &left);
			back = ca_counts_back(o, b);
			if (back)
				break;
			logmsg("%s: attempt %d (%d)%s: objects %lld -> %lld, bytes %lld -> %lld",
			       key, n, r, try ? " again" : "", o,
			       field(CA_STATS, "objects in use"),
			       b, field(CA_STATS, "bytes in use"));
		}
		if (!back)
			leaks++;
		else if (try)
			others++;
		if (left) {
			/* fewer than n calls: the operation ran unhindered */
			calls = n - 1;
			if (r) {
				logmsg("%s: failed without an injected failure: %d", key, r);
				bad++;
			}
		} else if (r) {
			failed++;
		}
		if (r == -EIO)
			bad++;
	}
	logmsg("%s: %d calls, %d failed, %d leaks, %d bad%s", key, calls, failed, leaks, bad,
	       others ? " (an attempt made again: other users' allocations)" : "");
	/* calls=0 is for the host to judge: the user may not be converted */
	result(calls < 0 || leaks || bad, key, "%d/%d/%d/%d", calls, failed, leaks, bad);
}

/* hot-add the block of hidden RAM at cpu_alloc_hotadd=; 0 or errno */
static int memory_add(void)
{
	long long addr = env_num("cpu_alloc_hotadd", 0);
	char *s = slurp("/sys/devices/system/memory/block_size_bytes");
	long long block = s ? strtoll(s, NULL, 16) : 0;
	char num[32];
	int err;

	if (!addr || block <= 0)
		return ENOENT;
	snprintf(num, sizeof(num), "0x%llx", addr);
	err = write_file("/sys/devices/system/memory/probe", num);
	snprintf(mem_state, sizeof(mem_state),
		 "/sys/devices/system/memory/memory%lld/state", addr / block);
	return err == EEXIST ? 0 : err;
}

static void check_inject(void)
{
	int err;

	if (access(FAILDIR, F_OK) || access("/proc/thread-self/fail-nth", F_OK)) {
		result(0, "inject", "absent");
		return;
	}
	/* one line per injected failure, no stack dump */
	write_file(FAILDIR "/verbose", "0");
	if (!access(TESTDIR "/kmem_cache", F_OK)) {
		inject("inject_kmem_cache", op_kmem_cache);
	}
	inject("inject_netns", op_netns);
	if (!access("/dev/loop-control", F_OK))
		inject("inject_loop", op_loop);
	else
		result(0, "inject_loop", "absent");
	if (access("/sys/devices/system/memory/probe", F_OK) ||
	    !getenv("cpu_alloc_hotadd")) {
		result(0, "inject_memory", "absent");
	} else if ((err = memory_add())) {
		result(1, "inject_memory", "probe-error-%d", err);
	} else {
		inject("inject_memory", op_memory);
	}
}

/* --- memory cgroups (cgroup v2 at /sys/fs/cgroup) --------------------- */

#define CGROOT "/sys/fs/cgroup"

/* 1 once cgroup v2 is mounted with the memory controller enabled below the root */
/* the sum of the per-CPU columns of /proc/interrupts (kstat_irqs) */
static long long irq_total(void)
{
	char *s = slurp("/proc/interrupts"), *line, *save, *p, *end;
	long long sum = 0;

	if (!s)
		return -1;
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		p = line + strspn(line, " ");
		strtoll(p, &end, 10);
		if (end == p || *end != ':')
			continue;	/* the header, or LOC:, NMI: and the other arch lines */
		for (p = end + 1; ; p = end) {
			long long v = strtoll(p, &end, 10);

			if (end == p)
				break;
			sum += v;
		}
	}
	return sum;
}

/*
 * Paths of the users moved by the generic conversions that no other
 * check takes: a tmpfs mount allocates its mount counts (mnt_pcp, summed
 * over every CPU by the read-only remount), its percpu_counters and its
 * inode number batches; an aio context its request counts (ctx->cpu).
 * GENERIC_ROUNDS of each (33 ms an aio context under TCG), then
 * cpu_alloc's objects and bytes are back to where they were.  The counts
 * are let settle before and after (the checks before free some objects
 * late, through RCU and workqueues, and so do these); if they differ, the
 * rounds are made once more from the counts of then, as inject() does,
 * and a second difference fails.
 * The interrupt counts that /proc/interrupts sums through CPU_PTR() do
 * not go down, and are not all 0 after the disk and network checks.
 */
/* an aio context made and destroyed: 0, or -1 */
static int aio_once(void)
{
	aio_context_t ctx = 0;

	return syscall(SYS_io_setup, 16, &ctx) || syscall(SYS_io_destroy, ctx) ? -1 : 0;
}

#define GENERIC_ROUNDS 20

/*
 * wait up to 10 s for cpu_alloc's object and byte counts to hold still for
 * 0.5 s; 1 if they did
 */
static int ca_counts_settle(long long *o, long long *b)
{
	int i, still = 0;

	*o = field(CA_STATS, "objects in use");
	*b = field(CA_STATS, "bytes in use");
	for (i = 0; i < 100 && still < 5; i++) {
		long long o2, b2;

		usleep(100000);
		o2 = field(CA_STATS, "objects in use");
		b2 = field(CA_STATS, "bytes in use");
		still = o2 == *o && b2 == *b ? still + 1 : 0;
		*o = o2;
		*b = b2;
	}
	return still == 5;
}

/* the rounds of check_generic(): how many mounts, remounts and aio contexts worked */
static void generic_rounds(int *mounts, int *ro, int *aios)
{
	int i;

	*mounts = *ro = *aios = 0;
	for (i = 0; i < GENERIC_ROUNDS; i++) {
		if (mount("generic", "/mnt/generic", "tmpfs", 0, "size=1m"))
			break;
		if (!mount(NULL, "/mnt/generic", NULL, MS_REMOUNT | MS_RDONLY, NULL))
			(*ro)++;
		if (umount("/mnt/generic"))
			break;
		(*mounts)++;
	}
	for (i = 0; i < GENERIC_ROUNDS && !aio_once(); i++)
		(*aios)++;
}

static void check_generic(void)
{
	long long o, b, o2, b2, irq0 = irq_total(), irq1;
	int attempt, mounts, ro, aios, back = 0, still;

	mkdir("/mnt", 0755);
	mkdir("/mnt/generic", 0755);
	still = ca_counts_settle(&o, &b);
	for (attempt = 1; attempt <= 2; attempt++) {
		generic_rounds(&mounts, &ro, &aios);
		still = ca_counts_settle(&o2, &b2) && still;
		back = o2 == o && b2 == b;
		if (back)
			break;
		logmsg("generic: attempt %d: cpu_alloc objects %lld -> %lld, bytes %lld -> %lld%s",
		       attempt, o, o2, b, b2,
		       still ? "" : " (the counts did not hold still for 0.5 s within 10 s)");
		o = o2;
		b = b2;
		still = 1;
	}
	irq1 = irq_total();
	result(mounts != GENERIC_ROUNDS || ro != GENERIC_ROUNDS || aios != GENERIC_ROUNDS ||
	       !back || irq0 <= 0 || irq1 < irq0,
	       "generic", "mount=%d/%d,aio=%d,irqs=%lld->%lld,counts_back=%s",
	       mounts, ro, aios, irq0, irq1, back ? "yes" : "no");
}

static int memcg_ok;

static void mount_cgroup2(void)
{
	char *s;

	if (mount("cgroup2", CGROOT, "cgroup2", 0, NULL))
		return;
	s = slurp(CGROOT "/cgroup.controllers");
	if (!s || !strstr(s, "memory"))
		return;
	memcg_ok = !write_file(CGROOT "/cgroup.subtree_control", "+memory");
}

/* klog_count: occurrences of str in the kernel log */
static int klog_count(const char *str)
{
	static char buf[1 << 21];
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0), c = 0;
	char *p;

	if (n <= 0 || n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n);
	if (n < 0)
		return -1;
	buf[n] = 0;
	for (p = buf; (p = strstr(p, str)); p++)
		c++;
	return c;
}

/* cg_percpu: the percpu bytes of memory.stat of cgroup directory dir */
static long long cg_percpu(const char *dir)
{
	char path[128];

	snprintf(path, sizeof(path), "%s/memory.stat", dir);
	return field(path, "percpu");
}

/* rmdir a cgroup whose tasks are gone; its css may linger for a moment */
static int cg_remove(const char *dir)
{
	int i;

	for (i = 0; i < 100; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		usleep(100000);
	}
	return errno;
}

/* cg_enter: move pid into cgroup directory dir; 0 or errno */
static int cg_enter(const char *dir, pid_t pid)
{
	char path[128], num[16];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(num, sizeof(num), "%d", (int)pid);
	return write_file(path, num);
}

/*
 * The kernel's own test of kmem accounting, built statically from the
 * tree's tools/testing/selftests/cgroup/test_kmem.c by the host:
 * test_kmem=<pass>/<fail>/<skip>, test_percpu_basic=<pass|fail|skip>,
 * test_kmem_failed=<the names of the failed tests>|none,
 * test_kmem_flaky=<the names of tests that failed once, then passed>|none,
 * test_kmem_skipped=<the names of tests skipped: kmem_skip= asked, or the
 * test found its feature missing>|none, test_kmem_ms=<milliseconds the
 * tests that ran took, all runs>,
 * test_kmem_deletion=<excess>/<online CPUs>|none: how far memory.current
 * was from the sum of memory.stat when test_kmem_memcg_deletion failed in
 * the run that counts, and the CPUs online (the host weighs it against the
 * per-CPU charge caches, see scripts/boot.sh).
 *
 * kmem_run: one run of /test_kmem, the tests named by kmem_skip= (from the
 * command line) skipped; res[N] 0 none, 1 pass, 2 fail, 3 skip, names[N]
 * the test's name; *excess the |memory.current - sum| that a failed
 * test_kmem_memcg_deletion printed, else left alone; *ms gets the times.
 */
static void kmem_run(int res[64], char names[64][48], unsigned long *seen,
		     int *nseen, int max_seen, long *excess, long *ms)
{
	int fds[2], i, k, num, status;
	long cur = -1, sum = -1, t;
	char line[256];
	unsigned long h;
	const char *p;
	pid_t pid;
	FILE *f;

	if (pipe(fds))
		return;
	pid = fork();
	if (!pid) {
		dup2(fds[1], 1);
		dup2(fds[1], 2);
		close(fds[0]);
		execl("/test_kmem", "test_kmem", getenv("kmem_skip") ?: "", (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	/* children that cg_run() forks flush copies of the buffered output:
	 * log each line once, and take each test's first result */
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		for (h = 5381, p = line; *p; p++)
			h = h * 33 + (unsigned char)*p;
		for (k = 0; k < *nseen && seen[k] != h; k++)
			;
		if (k == *nseen) {
			if (*nseen < max_seen)
				seen[(*nseen)++] = h;
			logmsg("test_kmem: %s", line);
		}
		/* the runner's "# NAME: N ms" after each test it ran */
		p = strrchr(line, ':');
		if (line[0] == '#' && p && sscanf(p, ": %ld ms", &t) == 1) {
			*ms += t;
			continue;
		}
		/* what test_kmem_memcg_deletion prints before its "not ok" */
		if (sscanf(line, "memory.current = %ld", &cur) == 1 ||
		    sscanf(line, "slab + anon + file + kernel_stack = %ld", &sum) == 1)
			continue;
		if (sscanf(line, "not ok %d", &num) == 1)
			i = 2;
		else if (sscanf(line, "ok %d", &num) == 1)
			i = strstr(line, "# SKIP") ? 3 : 1;
		else
			continue;
		if (num > 0 && num < 64 && !res[num]) {
			p = strrchr(line, ' ');
			res[num] = i;
			snprintf(names[num], 48, "%s", p && p[1] ? p + 1 : "?");
			if (i == 2 && cur >= 0 && sum >= 0 &&
			    !strcmp(names[num], "test_kmem_memcg_deletion"))
				*excess = labs(cur - sum);
		}
	}
	if (f)
		fclose(f);
	waitpid(pid, &status, 0);
}

/*
 * A test that fails outside the host's kmem_xfail= list makes init run
 * test_kmem once more: a failure that does not come back (the dying
 * cgroups test waits only 5 s for them, which a loaded TCG guest can
 * exceed) is reported as flaky, one that does as failed.
 */
static void check_test_kmem(void)
{
	static int r1[64], r2[64];
	static char n1[64][48], n2[64][48];
	static unsigned long seen[512];
	char failed[256] = "", flaky[256] = "", skipped[256] = "", percpu[16] = "missing";
	const char *xfail = getenv("kmem_xfail");
	int pass = 0, fail = 0, skip = 0, nseen = 0, retry = 0, i;
	long excess = -1, ms = 0;

	if (access("/test_kmem", X_OK)) {
		result(0, "test_kmem", "absent");
		return;
	}
	if (!memcg_ok) {
		result(0, "test_kmem", "no-memcg");
		return;
	}
	kmem_run(r1, n1, seen, &nseen, 512, &excess, &ms);
	for (i = 1; i < 64; i++)
		retry |= r1[i] == 2 && !in_list(xfail, n1[i]);
	if (retry) {
		logmsg("test_kmem: an unexpected failure: once more");
		nseen = 0;
		excess = -1;
		kmem_run(r2, n2, seen, &nseen, 512, &excess, &ms);
	}
	for (i = 1; i < 64; i++) {
		int r = r1[i];
		char *list = NULL;

		if (r == 2 && retry && !in_list(xfail, n1[i]) && r2[i] != 2) {
			r = r2[i];
			list = flaky;
		} else if (r == 2) {
			list = failed;
		} else if (r == 3) {
			list = skipped;
		}
		if (list && strlen(list) + strlen(n1[i]) + 2 < sizeof(failed))
			snprintf(list + strlen(list), sizeof(failed) - strlen(list),
				 "%s%s", *list ? "," : "", n1[i]);
		pass += r == 1;
		fail += r == 2;
		skip += r == 3;
		if (r && !strcmp(n1[i], "test_percpu_basic"))
			snprintf(percpu, sizeof(percpu), "%s",
				 r == 1 ? "pass" : r == 2 ? "fail" : "skip");
	}
	/* which failures the environment explains is the host's call */
	result(strcmp(percpu, "pass"), "test_kmem", "%d/%d/%d", pass, fail, skip);
	result(strcmp(percpu, "pass"), "test_percpu_basic", "%s", percpu);
	result(0, "test_kmem_failed", "%s", *failed ? failed : "none");
	result(0, "test_kmem_flaky", "%s", *flaky ? flaky : "none");
	result(0, "test_kmem_skipped", "%s", *skipped ? skipped : "none");
	result(0, "test_kmem_ms", "%ld", ms);
	if (excess >= 0)
		result(0, "test_kmem_deletion", "%ld/%d", excess,
		       count_cpus("/sys/devices/system/cpu/online"));
	else
		result(0, "test_kmem_deletion", "none");
}

/*
 * An object allocated with GFP_KERNEL_ACCOUNT through the debugfs test,
 * by a task in a new cgroup: memcg_percpu=<charged>/<expected>/<left>,
 * the growth of the cgroup's "percpu" in memory.stat, the object's size
 * times the possible CPUs, and what is left after the free.  The charge
 * may add up to a pointer per 4 bytes for the bookkeeping, as
 * mm/percpu.c charges (the series charges it since alloc_percpu() is
 * served by cpu_alloc).
 */
#define ACCOUNT_SIZE 4096

/* --- the percpu tracepoints ---------------------------------------------- */

#define TRACEFS "/sys/kernel/tracing"

/* count the lines of the trace with "ev:"; collect up to max ptr= values */
static int trace_events(const char *trace, const char *ev, char (*ptrs)[24],
			int max)
{
	const char *p = trace, *q;
	int n = 0;

	while ((p = strstr(p, ev))) {
		p += strlen(ev);
		if (*p != ':')
			continue;
		q = strstr(p, " ptr=");
		if (ptrs && q && n < max)
			sscanf(q + 5, "%23s", ptrs[n]);
		n++;
	}
	return n;
}

static int trace_enable(const char *ev, const char *on)
{
	char path[128];

	snprintf(path, sizeof(path), TRACEFS "/events/percpu/%s/enable", ev);
	return write_file(path, on);
}

/*
 * Since alloc_percpu() is a wrapper of cpu_alloc(), the percpu
 * tracepoints that tools such as bcc's and bpftrace's read must still
 * fire: creating and removing a memory cgroup (alloc_percpu() of its
 * statistics and of its css's refcount) must show percpu_alloc_percpu
 * events, percpu_free_percpu events for the same pointers, and an
 * injected failure a percpu_alloc_percpu_fail event.  Kernels without
 * tracing report trace=absent.
 */
static void check_trace(void)
{
	static char ptrs[64][24], freed[256][24];
	const char *cg = CGROOT "/cpu_alloc_trace";
	int allocs = 0, kept, frees = 0, fails = -1, matched = 0, i, j, n, err;
	char *t;
	int fd;

	if (access(TRACEFS "/events", F_OK) &&
	    mount("tracefs", TRACEFS, "tracefs", 0, NULL)) {
		result(0, "trace", "absent");
		return;
	}
	if (access(TRACEFS "/events/percpu/percpu_alloc_percpu", F_OK) || !memcg_ok) {
		result(0, "trace", "absent");
		return;
	}
	fd = open(TRACEFS "/trace", O_WRONLY | O_TRUNC);
	if (fd >= 0)
		close(fd);
	err = trace_enable("percpu_alloc_percpu", "1") |
	      trace_enable("percpu_free_percpu", "1") |
	      trace_enable("percpu_alloc_percpu_fail", "1");
	if (err || mkdir(cg, 0755)) {
		result(1, "trace", "error-%d", err ? err : errno);
		goto out;
	}
	t = slurp(TRACEFS "/trace");
	allocs = trace_events(t ? t : "", "percpu_alloc_percpu", ptrs, 64);
	/* the pointers trace_events() kept */
	kept = allocs < 64 ? allocs : 64;
	cg_remove(cg);
	/* the cgroup's memory is freed after an RCU grace period and a work item */
	for (i = 0; i < 100 && kept; i++) {
		t = slurp(TRACEFS "/trace");
		if (!t)
			break;
		frees = trace_events(t, "percpu_free_percpu", freed, 256);
		matched = 0;
		for (j = 0; j < kept; j++)
			for (n = 0; n < frees && n < 256; n++)
				if (!strcmp(ptrs[j], freed[n])) {
					matched++;
					break;
				}
		if (matched == kept)
			break;
		usleep(100000);
	}
	/* an injected failure, where fail_cpu_alloc is built in */
	if (!access(FAILDIR, F_OK)) {
		for (n = 1, fails = 0; n <= 16 && !fails; n++) {
			fail_nth(n);
			err = mkdir(cg, 0755) ? errno : 0;
			fail_nth(0);
			if (!err)
				cg_remove(cg);
			t = slurp(TRACEFS "/trace");
			fails = t ? trace_events(t, "percpu_alloc_percpu_fail", NULL, 0) : 0;
		}
	}
	logmsg("trace: mkdir and rmdir of a memory cgroup: %d percpu_alloc_percpu, %d freed again (%d percpu_free_percpu); %d percpu_alloc_percpu_fail of injected failures",
	       allocs, matched, frees, fails);
	result(!allocs || !matched || !fails, "trace", "%d/%d/%d", allocs, matched, fails);
out:
	trace_enable("percpu_alloc_percpu", "0");
	trace_enable("percpu_free_percpu", "0");
	trace_enable("percpu_alloc_percpu_fail", "0");
}

static void check_memcg_percpu(void)
{
	const char *cg = CGROOT "/cpu_alloc_account";
	long long before, got = -1, left = -1, want, extra;
	int i, status, err;
	pid_t pid;

	if (!memcg_ok || access(TESTDIR "/account", F_OK)) {
		result(0, "memcg_percpu", "absent");
		return;
	}
	want = (long long)ACCOUNT_SIZE * count_cpus("/sys/devices/system/cpu/possible");
	extra = ACCOUNT_SIZE / 4 * (long long)sizeof(void *);
	if (mkdir(cg, 0755)) {
		result(1, "memcg_percpu", "mkdir-%d", errno);
		return;
	}
	before = cg_percpu(cg);
	pid = fork();
	if (!pid) {
		char num[16];

		snprintf(num, sizeof(num), "%d", ACCOUNT_SIZE);
		if ((err = cg_enter(cg, getpid())))
			_exit(err);
		_exit(write_file(TESTDIR "/account", num));
	}
	waitpid(pid, &status, 0);
	err = WIFEXITED(status) ? WEXITSTATUS(status) : 255;
	/* memory.stat is flushed every 2 s, or after enough updates */
	for (i = 0; !err && i < 50; i++) {
		got = cg_percpu(cg) - before;
		if (got == want || got == want + extra)
			break;
		usleep(100000);
	}
	if (!err)
		err = write_file(TESTDIR "/account", "0");
	for (i = 0; !err && i < 50; i++) {
		left = cg_percpu(cg) - before;
		if (!left)
			break;
		usleep(100000);
	}
	cg_remove(cg);
	logmsg("memcg_percpu: %d bytes x %lld CPUs: percpu +%lld, after the free %+lld (error %d)",
	       ACCOUNT_SIZE, want / ACCOUNT_SIZE, got, left, err);
	if (err)
		result(1, "memcg_percpu", "error-%d", err);
	else
		result((got != want && got != want + extra) || left, "memcg_percpu",
		       "%lld/%lld/%lld", got, want, left);
}

/* send_fd, recv_fd: pass a file descriptor over a unix socket */
static int send_fd(int sock, int fd)
{
	char c = 'n', cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char c, cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = &c, .iov_len = 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/*
 * A namespace holder: a child of init that, as uid (0: stays root),
 * creates namespaces with unshare(flags) in a creator child per
 * namespace, which hands the new network namespace over as a file
 * descriptor and exits, until max are held or a creation fails.  It
 * reports the count and why it stopped in a page it shares with init,
 * then holds everything until a byte or EOF arrives on cmd.  Before it
 * starts it waits for a byte on cmd (root moves it into its cgroup
 * meanwhile).
 *
 * Each creator first moves itself into the cgroup ccg, if one is given,
 * and pays there for the namespace it creates.  The holder itself stays
 * outside the limit: its copy-on-write faults after each fork, and a
 * report written into a pipe, need pages that a cgroup at its limit
 * cannot give, while the holder is exempt from the OOM killer and a new
 * creator is not killable yet.  That is how an earlier holder, inside
 * the limited cgroup, lost its report.
 */
struct hold_report {
	int state;		/* 0: creating, 1: reported (atomic) */
	long held;
	char why[48];
};

static void holder(uid_t uid, int flags, long max, const char *ccg,
		   struct hold_report *r, int cmd)
{
	struct rlimit rl = { .rlim_cur = 1 << 16, .rlim_max = 1 << 16 };
	char why[48] = "max", c;
	long n = 0;

	setrlimit(RLIMIT_NOFILE, &rl);
	/* the memcg OOM killer must not take the holder: only the creators */
	write_file("/proc/self/oom_score_adj", "-1000");
	if (uid && (setgroups(0, NULL) || setresgid(uid, uid, uid) ||
		    setresuid(uid, uid, uid))) {
		snprintf(why, sizeof(why), "setuid-%s", strerrorname_np(errno));
		goto report;
	}
	prctl(PR_SET_DUMPABLE, 1);
	if (read(cmd, &c, 1) != 1)
		_exit(1);
	while (n < max) {
		int sp[2], st, fd;
		pid_t pid;

		if (socketpair(AF_UNIX, SOCK_STREAM, 0, sp)) {
			snprintf(why, sizeof(why), "socketpair-%s", strerrorname_np(errno));
			break;
		}
		pid = fork();
		if (pid < 0) {
			snprintf(why, sizeof(why), "fork-%s", strerrorname_np(errno));
			close(sp[0]);
			close(sp[1]);
			break;
		}
		if (!pid) {
			int err;

			close(sp[0]);
			/* killable before it is charged anywhere near the limit */
			write_file("/proc/self/oom_score_adj", "1000");
			if (ccg && (err = cg_enter(ccg, 0)))	/* 0: itself */
				_exit(0x80 | (err & 0x7f));
			if (unshare(flags))
				_exit(errno & 0x7f);
			fd = open("/proc/self/ns/net", O_RDONLY);
			_exit(fd < 0 || send_fd(sp[1], fd) ? 0xff : 0);
		}
		close(sp[1]);
		fd = recv_fd(sp[0]);
		close(sp[0]);
		waitpid(pid, &st, 0);
		if (fd >= 0) {
			n++;
			continue;
		}
		if (WIFSIGNALED(st))
			snprintf(why, sizeof(why), "killed-%d", WTERMSIG(st));
		else if (WEXITSTATUS(st) == 0xff)
			snprintf(why, sizeof(why), "nsfd");
		else if (!WEXITSTATUS(st))
			/* sent, but the holder could not take it: its fd table */
			snprintf(why, sizeof(why), "recvfd");
		else if (WEXITSTATUS(st) & 0x80)
			snprintf(why, sizeof(why), "cgroup-%s",
				 strerrorname_np(WEXITSTATUS(st) & 0x7f) ?: "?");
		else
			snprintf(why, sizeof(why), "unshare-%s",
				 strerrorname_np(WEXITSTATUS(st)) ?: "?");
		break;
	}
report:
	r->held = n;
	memcpy(r->why, why, sizeof(r->why));
	__atomic_store_n(&r->state, 1, __ATOMIC_RELEASE);
	/* hold them until told, or until init goes away */
	if (read(cmd, &c, 1) < 0)
		_exit(1);
	_exit(0);
}

struct hold {
	pid_t pid;
	int cmd;
	struct hold_report *r;
	long held;
	char why[48];
};

/*
 * hold_start: a holder as uid in cgroup hcg (NULL: init's), whose
 * creators move into cgroup ccg (NULL: they stay with the holder)
 */
static int hold_start(struct hold *h, uid_t uid, const char *hcg, const char *ccg,
		      int flags, long max)
{
	int cp[2], err = 0;

	h->r = mmap(NULL, sizeof(*h->r), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (h->r == MAP_FAILED)
		return errno;
	memset(h->r, 0, sizeof(*h->r));	/* init's page, init's charge */
	if (pipe(cp)) {
		err = errno;
		goto unmap;
	}
	h->pid = fork();
	if (h->pid < 0) {
		err = errno;
		close(cp[0]);
		close(cp[1]);
		goto unmap;
	}
	if (!h->pid) {
		close(cp[1]);
		holder(uid, flags, max, ccg, h->r, cp[0]);
	}
	close(cp[0]);
	h->cmd = cp[1];
	if (hcg)
		err = cg_enter(hcg, h->pid);
	if (!err && write(h->cmd, "g", 1) == 1)
		return 0;
	err = err ? err : EIO;
	kill(h->pid, SIGKILL);
	waitpid(h->pid, NULL, 0);
	close(h->cmd);
unmap:
	munmap(h->r, sizeof(*h->r));
	return err;
}

/*
 * hold_wait: the holder's report, once it stopped creating; held -1 and
 * why "holder-<how>" if the holder died or did not report in time.
 */
#define HOLD_TIMEOUT 900

static void hold_wait(struct hold *h)
{
	int i, st;

	h->held = -1;
	snprintf(h->why, sizeof(h->why), "holder-timeout");
	for (i = 0; i < HOLD_TIMEOUT * 50; i++) {
		if (__atomic_load_n(&h->r->state, __ATOMIC_ACQUIRE)) {
			h->held = h->r->held;
			memcpy(h->why, h->r->why, sizeof(h->why));
			h->why[sizeof(h->why) - 1] = 0;
			return;
		}
		if (waitpid(h->pid, &st, WNOHANG) == h->pid) {
			snprintf(h->why, sizeof(h->why), "holder-%s-%d",
				 WIFSIGNALED(st) ? "killed" : "exit",
				 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
			h->pid = 0;
			return;
		}
		usleep(20000);
	}
	kill(h->pid, SIGKILL);	/* hold_end reaps it */
}

/* hold_end: let the holder release everything and exit */
static void hold_end(struct hold *h)
{
	close(h->cmd);
	if (h->pid > 0 && waitpid(h->pid, NULL, 0) < 0)
		logmsg("holder %d: waitpid: %s", (int)h->pid, strerror(errno));
	munmap(h->r, sizeof(*h->r));
}

/*
 * Wait up to secs for cpu_bytes to be back at b or below (netns teardown
 * is asynchronous).  Below: once cpu_alloc serves alloc_percpu(), the
 * kernel's own per-cpu memory is in cpu_bytes too, and what earlier
 * tests left to free asynchronously (cgroups, namespaces) may go
 * meanwhile; what the test made must not stay.
 */
static long long cpu_bytes_back(long long b, int secs)
{
	long long v = -1;
	int i;

	for (i = 0; i < secs * 10; i++) {
		v = field("/proc/vmstat", "cpu_bytes");
		if (v <= b)
			break;
		usleep(100000);
	}
	return v;
}

/* what root must still be able to do: a namespace, a block device, a kmem cache */
static void root_can(char *out, size_t size)
{
	int status, fd, err;
	pid_t pid;

	snprintf(out, size, "ok");
	pid = fork();
	if (!pid)
		_exit(unshare(CLONE_NEWNET) ? errno : 0);
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(out, size, "netns-%d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return;
	}
	fd = open("/dev/loop-control", O_RDWR);
	if (fd >= 0) {
		err = ioctl(fd, LOOP_CTL_ADD, LOOP_INDEX + 1) < 0 ? errno : 0;
		if (!err)
			ioctl(fd, LOOP_CTL_REMOVE, LOOP_INDEX + 1);
		close(fd);
		if (err) {
			snprintf(out, size, "loop-%d", err);
			return;
		}
	}
	if (!access(TESTDIR "/kmem_cache", F_OK) &&
	    (err = write_file(TESTDIR "/kmem_cache", "1")))
		snprintf(out, size, "kmem_cache-%d", err);
}

/*
 * An unprivileged user (uid 1000) in a cgroup with a small memory.max
 * creates user and network namespaces and holds them until it fails.
 * The user owns a delegated subtree, cpu_alloc_unpriv: its holder
 * waits in holder/, each creator moves itself into user/, which has the
 * limit (see holder()).
 * It must fail on its own cgroup's limit, with the cpu_alloc region far
 * from full, and root must still be able to create what needs per-cpu
 * memory.  Facts for the host:
 *   unpriv=<held>/<why it stopped>/<root: ok or what failed>
 *   unpriv_events=<max>/<oom>/<oom_kill> events of the cgroup meanwhile
 *   unpriv_region=<free units>/<total units> at the stop
 *   unpriv_region_full=<new "region full" messages>
 *   unpriv_freed=<cpu_bytes before>/<after the end>, not more than before
 *   unpriv_percpu=<percpu of memory.stat at the stop, per namespace>
 */
#define UNPRIV_UID 1000
#define UNPRIV_MAX "8M"

static void check_unpriv(void)
{
	/* the delegated subtree, parents first */
	const char *dir[3] = { CGROOT "/cpu_alloc_unpriv",
			       CGROOT "/cpu_alloc_unpriv/holder",
			       CGROOT "/cpu_alloc_unpriv/user" };
	const char *hcg = dir[1], *cg = dir[2];
	long long b0, b1, e[3], e0[3], ufree, utotal, percpu;
	const char *ev[3] = { "max", "oom", "oom_kill" };
	char rootok[32], path[128];
	struct hold h;
	int full0, err, i;

	if (!memcg_ok || access("/proc/self/ns/user", F_OK) ||
	    access("/proc/self/ns/net", F_OK)) {
		result(0, "unpriv", "absent");
		return;
	}
	full0 = klog_count("region full");
	/*
	 * Delegated to the user as systemd delegates a user's slice: the
	 * user may move its processes between holder and user, the limit
	 * is on user.
	 */
	for (err = 0, i = 0; !err && i < 3; i++)
		err = mkdir(dir[i], 0755) ? errno : 0;
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", dir[0]);
	if (!err)
		err = write_file(path, "+memory");
	snprintf(path, sizeof(path), "%s/memory.max", cg);
	if (!err)
		err = write_file(path, UNPRIV_MAX);
	for (i = 0; !err && i < 3; i++) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", dir[i]);
		err = chown(path, UNPRIV_UID, UNPRIV_UID) ? errno : 0;
	}
	if (err) {
		result(1, "unpriv", "cgroup-%d", err);
		goto out;
	}
	snprintf(path, sizeof(path), "%s/memory.events", cg);
	for (i = 0; i < 3; i++)
		e0[i] = field(path, ev[i]);
	/*
	 * After the cgroups are made: their own per-cpu statistics come
	 * from cpu_alloc too once it serves alloc_percpu(), and they are
	 * still there when the namespaces' memory must be back.
	 */
	b0 = field("/proc/vmstat", "cpu_bytes");
	err = hold_start(&h, UNPRIV_UID, hcg, cg, CLONE_NEWUSER | CLONE_NEWNET, 100000);
	if (err) {
		result(1, "unpriv", "holder-%d", err);
		goto out;
	}
	hold_wait(&h);
	for (i = 0; i < 3; i++)
		e[i] = field(path, ev[i]) - e0[i];
	ufree = field(CA_STATS, "units free");
	utotal = field(CA_STATS, "units total");
	percpu = cg_percpu(cg);
	root_can(rootok, sizeof(rootok));
	logmsg("unpriv: uid %d in a cgroup of memory.max %s held %ld namespaces, then %s; events max %lld oom %lld oom_kill %lld; region %lld/%lld units free; percpu %lld; root: %s",
	       UNPRIV_UID, UNPRIV_MAX, h.held, h.why, e[0], e[1], e[2], ufree, utotal, percpu, rootok);
	hold_end(&h);
	b1 = cpu_bytes_back(b0, 30);
	result(h.held <= 0 || strcmp(rootok, "ok"), "unpriv", "%ld/%s/%s", h.held, h.why, rootok);
	result(0, "unpriv_events", "%lld/%lld/%lld", e[0], e[1], e[2]);
	result(0, "unpriv_region", "%lld/%lld", ufree, utotal);
	result(0, "unpriv_region_full", "%d", klog_count("region full") - full0);
	result(b1 > b0, "unpriv_freed", "%lld/%lld", b0, b1);
	result(0, "unpriv_percpu", "%lld", h.held > 0 ? percpu / h.held : -1);
out:
	for (i = 2; i >= 0; i--)
		cg_remove(dir[i]);
}

/*
 * With cpu_alloc_root_netns=N on the kernel command line: how many
 * network namespaces root holds at once (up to N), and why it stopped:
 * root_netns=<held>/<why>/<"region full" messages>/<Percpu kB>/<cpu_bytes>
 * at the peak, and root_netns_freed=<cpu_bytes before>/<after>.
 */
static void check_root_netns(void)
{
	long long max = env_num("cpu_alloc_root_netns", 0), b0, b1, pcpu, bytes;
	struct hold h;
	int full0, err;

	if (max <= 0 || access("/proc/self/ns/net", F_OK))
		return;
	b0 = field("/proc/vmstat", "cpu_bytes");
	full0 = klog_count("region full");
	err = hold_start(&h, 0, NULL, NULL, CLONE_NEWNET, max);
	if (err) {
		result(1, "root_netns", "holder-%d", err);
		return;
	}
	hold_wait(&h);
	pcpu = field("/proc/meminfo", "Percpu");
	bytes = field("/proc/vmstat", "cpu_bytes");
	logmsg("root_netns: held %ld network namespaces, then %s; Percpu %lld kB, cpu_bytes %lld",
	       h.held, h.why, pcpu, bytes);
	hold_end(&h);
	b1 = cpu_bytes_back(b0, 120);
	result(h.held <= 0, "root_netns", "%ld/%s/%d/%lld/%lld", h.held, h.why,
	       klog_count("region full") - full0, pcpu, bytes);
	result(b1 > b0, "root_netns_freed", "%lld/%lld", b0, b1);
}

static void check_numa(void)
{
	char line[128], *s = slurp(TESTDIR "/numa");

	if (!s) {
		result(0, "numa", "absent");
		return;
	}
	snprintf(line, sizeof(line), "%s", s + (strncmp(s, "numa=", 5) ? 0 : 5));
	line[strcspn(line, "\n")] = 0;
	result(strncmp(line, "ok", 2) != 0, "numa", "%s", line);
}

/*
 * check_ptdump: the kernel page-table dump (CONFIG_PTDUMP_DEBUGFS) marks
 * the cpu area and, after it, the start of its slots at the boot-time
 * base.  Below the base nothing is mapped; from it, the first chunks are.
 * ptdump=ok:<mapped lines below the base>/<mapped lines from it>.
 */
static void check_ptdump(void)
{
	FILE *f = fopen("/sys/kernel/debug/page_tables/kernel", "r");
	int section = 0, below = 0, above = 0;
	char line[256];

	if (!f) {
		result(0, "ptdump", "absent");
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		int present = strstr(line, " RW ") || strstr(line, " ro ");

		if (!strncmp(line, "---[ ", 5)) {
			if (!strncmp(line + 5, "CPU area slots", 14))
				section = section == 1 ? 2 : -1;
			else if (!strncmp(line + 5, "CPU area", 8))
				section = 1;
			else if (section > 0)
				section = 3;
			continue;
		}
		if (section == 1 && present)
			below++;
		if (section == 2 && present)
			above++;
	}
	fclose(f);
	if (section < 2) {
		result(1, "ptdump", "no-cpu-area-markers");
	} else {
		int bad = below != 0 || above == 0;

		result(bad, "ptdump", "%s:%d/%d", bad ? "bad" : "ok", below, above);
	}
}

/*
 * check_log: read the kernel log; count KUnit suites and test cases
 * (pass/fail/skip) and splats.  Facts for the verdict line, not checks:
 * the host judges the same log (kunit.py parse, its grep for splats).
 */
static void check_log(void)
{
	static char buf[1 << 21];
	int n = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	int pass = 0, fail = 0, skip = 0, splats = 0, suites = 0;
	char *line, *save;

	if (n <= 0 || n > (int)sizeof(buf) - 1)
		n = sizeof(buf) - 1;
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, n);
	if (n < 0) {
		result(1, "klog", "unreadable");
		return;
	}
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = line;

		/* klogctl lines are "<level>[time] message", or "<level>message" */
		if (*p == '<' && strchr(p, '>'))
			p = strchr(p, '>') + 1;
		if (*p == '[' && strchr(p, ']')) {
			p = strchr(p, ']') + 1;
			if (*p == ' ')
				p++;
		}
		if (strstr(p, "WARNING:") || strstr(p, "BUG:") || strstr(p, "Oops"))
			splats++;
		/* KTAP: suites at depth 0, their cases at depth 1 (4 spaces) */
		if (!strncmp(p, "not ok ", 7) || !strncmp(p, "ok ", 3)) {
			suites++;
		} else if (!strncmp(p, "    not ok ", 11)) {
			fail++;
		} else if (!strncmp(p, "    ok ", 7)) {
			if (strstr(p, "# SKIP"))
				skip++;
			else
				pass++;
		}
	}
	result(0, "suites", "%d", suites);
	result(0, "kunit", "%d/%d/%d", pass, fail, skip);
	result(0, "splats", "%d", splats);
}

int main(void)
{
	mount_proc_sys();
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	mount_cgroup2();
	logmsg("started");

	check_cpus();
	check_vmstat();
	leak_start();
	check_diskstats();
	check_snmp();
	check_nfs();
	check_dmatest();
	check_generic();
	check_stress();
	check_hotplug();
	check_inject();
	check_memcg_percpu();
	check_trace();
	check_unpriv();
	check_root_netns();
	check_test_kmem();
	check_numa();
	check_ptdump();
	check_kmemleak();
	check_log();

	printf("cpu_alloc-verdict: %s%s\n", failed ? "FAIL" : "PASS", verdict);
	return end_vm();
}
