#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make build [REV=...]: an out-of-tree build of the kernel at REV.
#
# REV (default: the head of $BRANCH) is checked out, detached, in a
# scratch git worktree ($CHECKOUT) so that the hacking work tree $SRC is
# never touched, and built in $O with ccache.  The config is allnoconfig
# merged with qemu/cpu_alloc.config (plus $CONFIG_EXTRA fragments) by the
# tree's own scripts/kconfig/merge_config.sh.  Symbols that the tree at
# REV does not define yet (CONFIG_CPU_ALLOC on the base) are skipped;
# any other requested value that does not make it into .config fails.
#
# The compiler's warnings are kept in $RESULTS/<commit>/warnings, one
# "file: message" a line, for make check and make bisect-check, and the
# build's time in build-seconds; a build with other config fragments
# (DEBUG=1) adds its tag to those names and to its logs' (build_tag).
. "$(dirname "$0")/lib.sh"

[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
REV=${REV:-$BRANCH}
id=$(resolve "$REV")
short=${id:0:12}

tag=$(build_tag)
mkdir -p "$LOGS" "$RESULTS/$id" "$O"
log=$LOGS/build-$short$tag.log

# The scratch checkout, a worktree of $SRC.
worktree "$CHECKOUT" "$id"
git -C "$CHECKOUT" checkout -q -f --detach "$id"

start=$(date +%s)
info BUILD "${REV} ($short) in $O"
: >"$log"
# (not again when nothing that decides the .config changed)
configure_once "$CHECKOUT" "$O" "$LOGS/config-$short$tag.log"

# Fixed build identity: the same commit builds to the same image.
export KBUILD_BUILD_TIMESTAMP
KBUILD_BUILD_TIMESTAMP=$(git -C "$CHECKOUT" log -1 --format=%cD "$id")
export KBUILD_BUILD_USER=cpu-alloc KBUILD_BUILD_HOST=qemu

set +e
kmake "$CHECKOUT" "$O" -j"${JOBS:-$(nproc)}" ${KBUILD_VERBOSE:+V=$KBUILD_VERBOSE} \
	${BUILD_TARGETS:-all} >>"$log" 2>&1
rc=$?
set -e
secs=$(( $(date +%s) - start ))
# "file: warning: text", without line and column, sorted: comparable
# across commits that move lines around.
diag_lines warning "$CHECKOUT" <"$log" >"$RESULTS/$id/warnings$tag"
echo "$secs" >"$RESULTS/$id/build-seconds$tag"
if [ $rc != 0 ]; then
	echo "--- last lines of $log" >&2
	grep -a -E 'error|Error' "$log" | tail -n 10 >&2 || true
	tail -n 15 "$log" >&2
	die "build of $short failed after ${secs}s" "log: $log"
fi
[ -f "$O/arch/x86/boot/bzImage" ] || die "the build of $short made no arch/x86/boot/bzImage" "log: $log"
echo "$id" >"$O/.cpu-alloc-built"
config_done "$O"
info BUILT "$short in ${secs}s, $(wc -l <"$RESULTS/$id/warnings$tag") warnings; log: $log"
