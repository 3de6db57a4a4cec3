# SPDX-License-Identifier: GPL-2.0-only
# Common helpers of the cpu_alloc driver scripts.  Sourced, never run.
#
# Every script reads its settings from the environment that the Makefile
# exports (WORK, SRC, O, LOCK, ...), so each one can also be run by hand.

set -euo pipefail

# The repository this driver lives in.
TOP=${TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
LOCK=${LOCK:-$TOP/kernel-base.lock}
COMMITS=${COMMITS:-$TOP/commits}
WORK=${WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/cpu-alloc}
SRC=${SRC:-$WORK/linux}
BRANCH=${BRANCH:-cpu-alloc}
LOGS=${LOGS:-$WORK/logs}
O=${O:-$WORK/build}
CHECKOUT=${CHECKOUT:-$WORK/checkout}
RESULTS=${RESULTS:-$WORK/results}

# Fixed identity of the imported base commit: the same tarball gives the
# same commit id on every machine.
BASE_IDENT_NAME="Debian linux-source"
BASE_IDENT_EMAIL="debian-kernel@lists.debian.org"
BASE_IDENT_DATE="2000-01-01T00:00:00+0000"

info() { printf '  %-7s %s\n' "$1" "$2"; }
warn() { printf '%s: warning: %s\n' "${0##*/}" "$*" >&2; }
die() {
	printf '%s: error: %s\n' "${0##*/}" "$1" >&2
	shift
	for l in "$@"; do printf '  %s\n' "$l" >&2; done
	exit 1
}
vrun() { [ "${V:-0}" = 1 ] && echo "+ $*" >&2; "$@"; }

# lock_get KEY: the value of KEY in the lock file.
lock_get() {
	[ -f "$LOCK" ] || die "no lock file $LOCK" "run: make relock"
	sed -n "s/^$1=//p" "$LOCK" | head -n1
}

# git in the kernel work tree, with no user configuration leaking in.
kgit() { git -C "$SRC" -c core.autocrlf=false -c advice.detachedHead=false "$@"; }

# tree_dirty: true when the work tree has changes not in a commit,
# including untracked files hidden by Debian's top-level .gitignore.
tree_dirty() {
	! kgit diff-index --quiet HEAD -- 2>/dev/null && return 0
	[ -n "$(kgit ls-files --others -- | head -n1)" ] && return 0
	return 1
}

# am_in_progress: true while a git am is stopped in the work tree.
am_in_progress() { [ -d "$(kgit rev-parse --absolute-git-dir)/rebase-apply" ]; }

# worktree DIR REV: make DIR a detached worktree of $SRC at REV, unless
# it is one already (then it is left where it is).
worktree() {
	lock_dir "$1"
	[ -e "$1/.git" ] && return 0
	rm -rf "$1"
	kgit worktree prune
	kgit worktree add -q --detach "$1" "$2" >/dev/null
}

# lock_dir DIR: make this script (and the scripts it runs) the only user
# of the scratch directory DIR until it exits; two builds switching one
# checkout between commits would break each other.  Fails at once if
# another make holds it.
lock_dir() {
	local var
	var=CPU_ALLOC_LOCK_$(printf '%s' "$1" | cksum | cut -d' ' -f1)
	[ -n "${!var:-}" ] && return 0
	command -v flock >/dev/null || return 0
	mkdir -p "$(dirname "$1")"
	exec {lockfd}>"$1.lock"
	flock -n "$lockfd" ||
		die "another make is using $1" "wait for it to finish, or give this one its own WORK="
	export "$var=1"
}

# resolve REV: the commit id of REV in the work tree, or die.
resolve() {
	kgit rev-parse --verify -q "$1^{commit}" ||
		die "unknown revision '$1' in $SRC" "see: git -C $SRC log --oneline $(lock_get BASE_COMMIT)..$BRANCH"
}
