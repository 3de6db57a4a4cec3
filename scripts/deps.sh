#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make deps: install with apt-get what the project needs, the pinned
# linux-source version included.  Idempotent: installed packages are kept.
. "$(dirname "$0")/lib.sh"

PKG=$(lock_get PACKAGE)
VER=$(lock_get VERSION)

# The tools the driver runs, what a kernel build needs, and the cross
# compiler of make check's arm64 compile.
PACKAGES="git gcc make libc6-dev bc bison flex libelf-dev libssl-dev cpio
xz-utils kmod ccache rsync perl python3 python3-ply python3-git dwarves
qemu-system-x86 sparse coccinelle b4 gnuplot-nox nfs-ganesha nfs-ganesha-vfs
gcc-aarch64-linux-gnu"

SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

if [ "${DEPS_NO_UPDATE:-0}" != 1 ]; then
	info APT "update"
	vrun $SUDO apt-get update -qq >/dev/null ||
		die "apt-get update failed" "check the network and /etc/apt/sources.list"
fi

if ! apt-cache madison "$PKG" 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print $2}' | grep -qxF "$VER"; then
	have=$(dpkg-query -W -f '${Version}' "$PKG" 2>/dev/null || true)
	if [ "$have" != "$VER" ]; then
		now=$(apt-cache policy "$PKG" 2>/dev/null | sed -n 's/^ *Candidate: //p')
		die "$PKG $VER, pinned in kernel-base.lock, is no longer in the archive" \
		    "the archive offers: ${now:-nothing}" \
		    "run: make relock   (pins what the archive offers and rewrites the lock)"
	fi
fi

missing=
for p in $PACKAGES; do
	dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ "$(dpkg-query -W -f '${Version}' "$PKG" 2>/dev/null || true)" = "$VER" ] || missing="$missing $PKG=$VER"

if [ -z "$missing" ]; then
	info DEPS "all installed ($PKG $VER)"
	exit 0
fi
info APT "install$missing"
vrun $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null ||
	die "apt-get install failed for:$missing" "see the messages above; a package may be missing from the archive"
info DEPS "installed$missing"
