/* SPDX-License-Identifier: GPL-2.0-only */
/* A local header of include_asm.c. */
