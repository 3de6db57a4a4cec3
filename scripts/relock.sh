#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make relock: pin the linux-source version the archive offers now (or
# VERSION=...), install it, import it once and rewrite kernel-base.lock.
. "$(dirname "$0")/lib.sh"

PKG=${PACKAGE:-linux-source-6.1}
[ -f "$LOCK" ] && PKG=$(lock_get PACKAGE)
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

[ "${DEPS_NO_UPDATE:-0}" = 1 ] || $SUDO apt-get update -qq >/dev/null || die "apt-get update failed"
VER=${VERSION:-$(apt-cache policy "$PKG" 2>/dev/null | sed -n 's/^ *Candidate: //p')}
[ -n "$VER" ] && [ "$VER" != "(none)" ] || die "the archive offers no $PKG" "check /etc/apt/sources.list (bookworm and bookworm-security)"

if [ "$(dpkg-query -W -f '${Version}' "$PKG" 2>/dev/null || true)" != "$VER" ]; then
	info APT "install $PKG=$VER"
	$SUDO apt-get install -y -qq --no-install-recommends --allow-downgrades "$PKG=$VER" >/dev/null ||
		die "cannot install $PKG=$VER"
fi
TARBALL=$(dpkg -L "$PKG" | grep -m1 '\.tar\.xz$') || die "$PKG $VER ships no .tar.xz"
SHA=$(sha256sum "$TARBALL" | cut -d' ' -f1)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/relock.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/lock" <<EOT
PACKAGE=$PKG
VERSION=$VER
TARBALL=$TARBALL
SHA256=$SHA
EOT
info IMPORT "$TARBALL (to compute the base commit id)"
BASE=$(LOCK="$tmp/lock" "$TOP/scripts/tree.sh" import-only "$tmp/linux" | tail -n1)
mk=$tmp/linux/Makefile
KV=$(awk -F' = ' '/^VERSION =/{v=$2} /^PATCHLEVEL =/{p=$2} /^SUBLEVEL =/{s=$2} /^EXTRAVERSION =/{e=$2; print v"."p"."s e; exit}' "$mk")

{
	echo "# The pinned base of the cpu_alloc series.  Written by 'make relock';"
	echo "# read by 'make deps' and 'make tree'.  BASE_COMMIT is the id of the"
	echo "# tarball imported with a fixed identity and date (scripts/tree.sh)."
	cat "$tmp/lock"
	echo "KERNELVERSION=$KV"
	echo "BASE_COMMIT=$BASE"
} >"$LOCK"
info LOCK "$PKG $VER, Linux $KV, base $BASE"
