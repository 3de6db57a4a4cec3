#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make cold-cost: which commits make a cold ccache compile (nearly) the
# whole tree again.
#
# ccache reuses an object when the compiler's preprocessed input is one it
# has seen.  With an empty cache (a fresh CI machine), every commit that
# changes the preprocessed text of most objects costs a full compile (20
# minutes on 2 cores), whatever its diff looks like: a line added to a
# header that mm.h includes shifts the line markers of every file, while
# a new Kconfig symbol or a same-line-count edit of a macro that few
# files expand costs nothing.  Warm runs hide this, since the cache holds
# every text already.
#
# For a fixed sample of the objects of the build in $O (COLD_SAMPLE of
# them, spread over the tree), this preprocesses each commit from the base
# to the head with the object's own command line from its .cmd file, in a
# worktree of its own, and counts the objects whose text differs from the
# previous commit's, weighted by the size of their text.  The
# configuration is each commit's own: where a commit changes a Kconfig
# file, the worktree is configured again from the fragments (as make
# build does) and its autoconf.h comes first on the include path, so that
# a new default that many objects expand (a shift in CPU_PTR()) counts.
# A commit that changes half of the text or more is FULL; the first
# commit always is, since the base is never built as a kernel.  The
# shares add up to how many times a cold bisect-check compiles the tree;
# past COLD_FULL_MAX times it fails, since every full compile costs make
# test about 12-20 minutes on a fresh machine.
. "$(dirname "$0")/lib.sh"

case "$COLD_SAMPLE$COLD_FULL_MAX" in
*[!0-9]*) die "COLD_SAMPLE=$COLD_SAMPLE COLD_FULL_MAX=$COLD_FULL_MAX: must be numbers" "run: make cold-cost COLD_SAMPLE=12" ;;
esac
[ "$COLD_SAMPLE" -gt 0 ] || die "COLD_SAMPLE=0: nothing to sample" "run: make cold-cost COLD_SAMPLE=12"
[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
base=$(lock_get BASE_COMMIT)
head=$(resolve "${REV:-$BRANCH}")
kgit merge-base --is-ancestor "$base" "$head" || die "$head does not descend from the base $base"

# The objects compiled from C by the build in $O, each with its .cmd.
mapfile -t cmds < <(cd "$O" 2>/dev/null &&
	find . -name '.*.o.cmd' ! -name '*.mod.o.cmd' ! -path './scripts/*' ! -path './tools/*' |
	sed 's#^\./##' | LC_ALL=C sort |
	while read -r f; do grep -qE '^cmd_[^ ]+ := .* -c -o [^ ]+ [^ ]+\.c' "$f" && echo "$f"; done)
[ "${#cmds[@]}" -gt 0 ] || die "no compiled objects in $O" "run: make build"
# evenly spaced over the sorted list: the same sample for the same build
sample=()
n=${#cmds[@]}
k=$((COLD_SAMPLE < n ? COLD_SAMPLE : n))
for i in $(seq 0 $((k - 1))); do sample+=("${cmds[$((i * n / k))]}"); done

WT=$WORK/cold-cost
OV=$WORK/cold-cost-config
log=$LOGS/cold-cost-config.log
tmp=$WORK/cold-cost.i
# Their preprocessor command lines, once: in the worktree, with the
# commit's own autoconf.h before the build's, the text into $tmp; and
# their sources, relative to the tree (a commit that changes only other
# .c files changes none of their texts).
pp=() srcs=""
for f in "${sample[@]}"; do
	c=$(compile_cmd "$O/$f")
	c=${c%"${c##*[! ]}"}
	src=${c##* }
	srcs="$srcs${srcs:+$'\n'}${src#"$CHECKOUT"/}"
	c=${c//$CHECKOUT/$WT}
	c=${c/#ccache /}
	c="${c%% *} -I$OV/include ${c#* }"
	pp+=("$(printf '%s' "$c" | sed -E "s# -c -o [^ ]+ # -E -o $tmp #")")
done

mkdir -p "$LOGS"
worktree "$WT" "$base"
# at ID [RECONFIGURE]: the worktree at commit ID, configured as the builds
# configure it unless RECONFIGURE is 0 (ID changes no Kconfig file).
at() {
	git -C "$WT" -c advice.detachedHead=false checkout -q --detach "$1" ||
		die "cannot check out $1 in $WT" "remove $WT and run again"
	if [ "${2:-1}" = 1 ]; then
		configure "$WT" "$OV" "$log"
		make -C "$WT" O="$OV" syncconfig >>"$log" 2>&1 ||
			die "kconfig's syncconfig failed at $1" "log: $log"
	fi
}
at "$base"
# texts: the hash and the size of each sampled object's preprocessed text
# at the worktree's commit, one object per line (an object that does not
# preprocess there has an empty text).
# JOBS of them are preprocessed at once, each into a text of its own.
texts() {
	local i
	for i in "${!pp[@]}"; do
		(
			t=$tmp.$i
			(cd "$O" && eval "${pp[i]//" -o $tmp "/" -o $t "}") >/dev/null 2>&1 || : >"$t"
			printf '%s %s\n' "$(md5sum <"$t" | cut -c1-16)" "$(stat -c %s "$t")" >"$t.sum"
		) &
		job_slot
	done
	wait || true
	for i in "${!pp[@]}"; do cat "$tmp.$i.sum"; done
	rm -f "$tmp".*
}

# The cost of compiling an object grows with its preprocessed text, so a
# commit's share is the size of the texts it changes over the size of all
# (objects count too: 4 of 12 can be two thirds of the work, since the
# objects that include mm.h are the large ones).
row() { printf '%-12s  %-46.46s  %7s  %5s  %s\n' "$@"; }
row commit subject objects text ""
row ------------ ---------------------------------------------- ------- ----- ""
prev=$(texts)
row "${base:0:12}" "$(kgit log -1 --format=%s "$base")" - - "(base, $k objects sampled of $n)"
first=1 total=0 fulls="" prev_id=$base
for id in $(kgit rev-list --reverse "$base..$head"); do
	files=$(kgit diff --name-only "$prev_id" "$id")
	if printf '%s\n' "$files" | grep -v '\.c$' | grep -q . ||
		printf '%s\n' "$files" | grep -qxF "$srcs"; then
		reconfigure=0
		printf '%s\n' "$files" | grep -q 'Kconfig' && reconfigure=1
		at "$id" "$reconfigure"
		cur=$(texts)
	else
		# only .c files that no sampled object compiles: the same texts
		cur=$prev
	fi
	# changed objects, and their share of the text in percent
	read -r changed share < <(paste -d' ' <(printf '%s\n' "$prev") <(printf '%s\n' "$cur") |
		awk '{ all += $4; if ($1 != $3) { n++; ch += $4 } }
		     END { printf "%d %d\n", n, all ? (100 * ch + all / 2) / all : 0 }')
	mark=
	if [ "$first" = 1 ]; then
		# the base is never built as a kernel: this build is the first
		mark="FULL (the first build)" share=100 first=0
	elif [ $((2 * share)) -ge 100 ]; then
		mark=FULL
	fi
	[ -n "$mark" ] && fulls="$fulls ${id:0:12}"
	total=$((total + share))
	row "${id:0:12}" "$(kgit log -1 --format=%s "$id")" "$changed/$k" "$share%" "$mark"
	prev=$cur prev_id=$id
done
whole=$(awk -v t="$total" 'BEGIN { printf "%.1f", t / 100 }')
info COLD "a cold bisect-check compiles the tree about $whole times; FULL:${fulls:- none}"
[ "$total" -le $((COLD_FULL_MAX * 100)) ] ||
	die "a cold bisect-check compiles the tree about $whole times, more than COLD_FULL_MAX=$COLD_FULL_MAX" \
		"fold the header changes into an earlier commit that already changes them (see CONTRIBUTING, 'The time budget'), or raise COLD_FULL_MAX"
