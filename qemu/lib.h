/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The helpers of the two PID 1 programs, qemu/init.c (make boot) and
 * qemu/bench/init.c (make bench): reading and writing the files of
 * /proc, /sys and debugfs, the numbers in them, and the start and end
 * of the VM; qemu/test_kmem_main.c uses in_list().  Static,
 * single-threaded programs: the buffers are static.
 */
#ifndef CPU_ALLOC_QEMU_LIB_H
#define CPU_ALLOC_QEMU_LIB_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <time.h>
#include <unistd.h>

/* slurp: the contents of path, NUL-terminated, in a static buffer; NULL if unreadable. */
static inline char *slurp(const char *path)
{
	static char buf[1 << 20];
	ssize_t n, len = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return NULL;
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += n;
	close(fd);
	buf[len] = 0;
	return buf;
}

/* in_list: is @name in the comma-separated list @list (NULL: empty)? */
static inline int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/* write_file: write s to path; 0, or the errno of the failure. */
static inline int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), err = 0;

	if (fd < 0)
		return errno;
	if (write(fd, s, strlen(s)) < 0)
		err = errno;
	close(fd);
	return err;
}

/*
 * field: the number after "name" at the start of a line of path, then
 * a space or a colon ("cpu_bytes 8" of /proc/vmstat, "Percpu:  96 kB"
 * of /proc/meminfo); -1 when absent.
 */
static inline long long field(const char *path, const char *name)
{
	char *s = slurp(path), *p;
	size_t l = strlen(name);

	for (p = s; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, l) && (p[l] == ' ' || p[l] == ':'))
			return atoll(p + l + 1 + strspn(p + l + 1, " \t"));
	return -1;
}

/* now: seconds of CLOCK_MONOTONIC. */
static inline double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* env_num: the number in environment variable name (from the kernel command line), or def. */
static inline long long env_num(const char *name, long long def)
{
	const char *v = getenv(name);

	return v && *v ? strtoll(v, NULL, 0) : def;
}

/* mount_proc_sys: /proc and /sys, which every check reads. */
static inline void mount_proc_sys(void)
{
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
}

/* end_vm: flush the console and the disks, and end the VM (QEMU -no-reboot). */
static inline int end_vm(void)
{
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}

#endif
