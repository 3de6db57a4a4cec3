/* SPDX-License-Identifier: GPL-2.0 */
/* The one line of the real header that scripts/boot.sh reads. */
#define MEMCG_CHARGE_BATCH 64U
