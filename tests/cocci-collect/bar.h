/* SPDX-License-Identifier: GPL-2.0-only */
#include <linux/percpu.h>

struct bar_stats {
	unsigned long n;
};

struct bar {
	struct bar_stats __percpu *stats;	/* allocated in bar.c */
	struct bar_stats __percpu *moved;	/* from a local, in bar.c */
	char __percpu *buf;			/* cast: odd */
	void __percpu *blob;			/* computed size: odd */
	struct bar_stats __percpu *exact;	/* sizeof(*exact): exact */
	struct bar_stats __percpu *typed;	/* sizeof(a type): odd */
	struct bar_stats __percpu *other;	/* never allocated here */
};
