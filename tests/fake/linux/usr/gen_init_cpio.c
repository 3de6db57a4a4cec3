// SPDX-License-Identifier: GPL-2.0
/* Fake gen_init_cpio: prints its list file, which is all the fake QEMU reads. */
#include <stdio.h>

int main(int argc, char **argv)
{
	FILE *f = argc > 1 ? fopen(argv[1], "r") : NULL;
	int c;

	if (!f)
		return 1;
	while ((c = fgetc(f)) != EOF)
		putchar(c);
	return 0;
}
