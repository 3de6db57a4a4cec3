#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make regen: re-create the Coccinelle-generated commits of the series
# and compare them with the stored ones.
#
#   scripts/regen.sh                 compare; exit 1 if anything differs
#   UPDATE=1 scripts/regen.sh        rewrite $BRANCH with the result
#   scripts/regen.sh --apply F.cocci run coccinelle/F.cocci on the HEAD
#                                    of $SRC and commit the result there
#
# A generated commit is one whose message carries the trailer
#   Semantic-patch: coccinelle/<name>.cocci
# The branch $BRANCH of $SRC (base + series) is replayed, first parent
# only, from the base commit of kernel-base.lock in a scratch worktree
# ($REGEN_WT, default $WORK/regen): other commits are cherry-picked as
# they are; a generated commit is re-made by running spatch with the
# .cocci header's "// Options:" on the paths of its "// Files:" lines
# (there may be several; a directory means those of its *.c and *.h
# files that name the API; spatch runs once per file, so that a rule's
# dependencies and the include rule see one file at a time), on the
# file's absolute path from the directory $COCCI: spatch 1.1.1 looks
# for the .cocci's #include "lib/cpu_alloc.cocci" in the current
# directory only.
# A conversion whose header says "// Targets: collected" gets a first
# pass, spatch -D collect over the same files, that writes the targets
# it finds from their allocations to $LOGS/regen/NAME.targets; the
# patch pass reads them ($CPU_ALLOC_TARGETS).
# Its message is rebuilt from the header: the /// lines
# (subject, blank, body), a blank line, the Semantic-patch: trailer, then
# the other trailers of the stored commit (Signed-off-by: ...).  Author,
# committer and their dates are taken from the stored commit, so an
# unchanged input gives byte-identical commits and the same ids.
#
# Each generated commit is compared with the stored one as a patch
# (format-patch --zero-commit --no-signature -k --no-numbered
# --full-index); one line is printed per .cocci file:
#   REGEN   <name>.cocci  same
#   REGEN   <name>.cocci  DIFFERS (n sites)    n = +/- lines (and
#                                              message lines) that differ
#   REGEN   <name>.cocci  new (n sites)        no commit uses it yet
# followed by the difference.  A .cocci file that no commit uses is
# regenerated on top of the replayed series, in name order, and counts
# as a difference: the branch is not what coccinelle/ generates.  With
# UPDATE=1 such a file becomes a new commit at the end of the series,
# authored by the git user of $SRC with a Signed-off-by: of that user;
# move it to its place with git rebase -i if the end is not right.
#
# UPDATE=1 refuses a dirty $SRC, then points $BRANCH at the replayed
# series (with git reset --keep when $BRANCH is checked out).  Run
# "make export" afterwards to write commits/.  The scratch worktree is
# removed when nothing differs or after UPDATE=1, and kept otherwise.
#
# spatch's output for NAME.cocci is in $LOGS/regen/NAME.log.
#
# Each spatch run on one file is kept in a cache ($SPATCH_CACHE, see
# lib.sh; "none" turns it off), as ccache keeps a compile: under the
# hash of everything that decides its result (spatch's and python3's
# versions, the mode and options, the .cocci and every file of
# coccinelle/lib, the targets collected so far, the file's path and
# text).  A hit writes the same file (patch mode) or appends the same
# targets (collect mode) and the same output to the log, without
# running spatch; only runs that succeeded without an error line are
# kept.  A regen that changes nothing is then mostly git's work.
#
# Settings (environment): SRC, BRANCH, LOCK, WORK, LOGS as in lib.sh;
# COCCI (default $TOP/coccinelle), REGEN_WT, SPATCH (default spatch),
# UPDATE, V=1 (show commands).
. "$(dirname "$0")/lib.sh"

COCCI=${COCCI:-$TOP/coccinelle}
[ -d "$COCCI" ] || die "no directory $COCCI"
COCCI=$(cd "$COCCI" && pwd)
REGEN_WT=${REGEN_WT:-$WORK/regen}
SPATCH=${SPATCH:-spatch}
UPDATE=${UPDATE:-0}
RLOG=$LOGS/regen

command -v "$SPATCH" >/dev/null || die "$SPATCH not found" "run: make deps   (installs coccinelle)"

# cocci_meta FILE KEY: the value of the "// KEY:" header line.
cocci_meta() { sed -n "s|^// $2:[[:space:]]*||p" "$1" | head -n1; }

# cocci_message FILE: subject and body from the /// lines.
cocci_message() {
	sed -n 's|^///\( \(.*\)\)\{0,1\}$|\2|p' "$1" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'
}

# trailers COMMIT: the trailer lines of COMMIT, without Semantic-patch:.
trailers() {
	git -C "$WT" log -1 --format=%B "$1" |
		git interpret-trailers --parse | grep -v '^Semantic-patch:' || true
}

# message NAME COMMIT: the message of the generated commit.
message() {
	local f=$COCCI/$1.cocci
	cocci_message "$f"
	printf '\nSemantic-patch: coccinelle/%s.cocci\n' "$1"
	if [ -n "$2" ]; then
		trailers "$2"
	else
		printf 'Signed-off-by: %s <%s>\n' "$(git -C "$WT" config user.name)" "$(git -C "$WT" config user.email)"
	fi
}

# The functions a conversion rewrites: a file that names none of them
# has nothing to convert.
API_NAMES='(__)?alloc_percpu(_gfp)?|free_percpu|(per|this|raw)_cpu_ptr'

# expand_files NAME: the files of the "// Files:" line, one a line; a
# directory gives those of its *.c and *.h files that name the API.
expand_files() {
	local f=$COCCI/$1.cocci p files
	# several "// Files:" lines add up
	files=$(sed -n 's|^// Files:[[:space:]]*||p' "$f" | tr '\n' ' ')
	[ -n "$files" ] || die "$f has no '// Files:' line"
	for p in $files; do
		if [ -d "$WT/$p" ]; then
			# only the files that name the API: no other has a site,
			# and spatch parses every file it is given
			git -C "$WT" grep -l -w -E "$API_NAMES" -- "$p/*.c" "$p/*.h" || true
		elif [ -f "$WT/$p" ]; then
			echo "$p"
		else
			warn "$1.cocci: '$p' is not in the tree"
		fi
	done
}

# The error lines of spatch's output that fail a conversion.
SPATCH_ERRORS='^(error|fatal)|exception|python failure'

# spatch_inputs: what decides every run besides the .cocci, its mode,
# the targets and the file: the tools' versions and coccinelle/lib.
spatch_inputs() {
	echo "cpu-alloc spatch cache 1"
	"$SPATCH" --version 2>&1 | head -n1
	python3 --version 2>&1
	(cd "$COCCI" && find lib -type f ! -path '*/__pycache__/*' ! -name '*.pyc' | LC_ALL=C sort |
		while read -r l; do echo "$l $(sha256sum <"$l" | cut -c1-64)"; done)
}
SPATCH_INPUTS=

# spatch_cached MODE FILE OPTS...: spatch -D MODE of $f on $wt/FILE,
# its output appended to the log; from the cache when it holds the same
# run.  Collect mode appends to $CPU_ALLOC_TARGETS, patch mode rewrites
# the file in place.  Fails as spatch does.
spatch_cached() {
	local mode=$1 file=$2 key dir tmp out text_hash rc=0 size=0
	shift 2
	local -a args=(--sp-file "$f" -D "$mode" "$@")
	[ "$mode" = patch ] && args+=(--in-place)
	if [ "$SPATCH_CACHE" = none ]; then
		(cd "$COCCI" && vrun "$SPATCH" "${args[@]}" "$wt/$file") >>"$RLOG/$name.log" 2>&1
		return
	fi
	[ -n "$SPATCH_INPUTS" ] || SPATCH_INPUTS=$(spatch_inputs)
	# (the .cocci's hash once per file of it; the targets' once per
	# patch pass, as only the collect pass adds to them)
	[ "$cocci_hashed" = "$f" ] || { cocci_hash=$(sha256sum <"$f"); cocci_hashed=$f; }
	if [ "$mode" = collect ] || [ "$targets_mode" != "$mode" ]; then
		targets_hash=$(cat "${CPU_ALLOC_TARGETS:-/dev/null}" 2>/dev/null | sha256sum)
		targets_mode=$mode
	fi
	text_hash=$(sha256sum <"$wt/$file")
	# (the same key as ever: a cache filled before still serves)
	key=$({
		printf '%s\n' "$SPATCH_INPUTS" "mode $mode" "options $*" "file $file"
		echo "cocci ${cocci_hash:0:64}"
		echo "targets ${targets_hash:0:64}"
		echo "text ${text_hash:0:64}"
	} | sha256sum)
	key=${key:0:64}
	dir=$SPATCH_CACHE/${key:0:2}/$key
	if [ -f "$dir/done" ]; then
		cat "$dir/log" >>"$RLOG/$name.log"
		if [ "$mode" = patch ]; then
			cat "$dir/result" >"$wt/$file"
		else
			cat "$dir/result" >>"$CPU_ALLOC_TARGETS"
		fi
		return 0
	fi
	out=$(mktemp)
	[ "$mode" = collect ] && size=$(stat -c %s "$CPU_ALLOC_TARGETS")
	(cd "$COCCI" && vrun "$SPATCH" "${args[@]}" "$wt/$file") >"$out" 2>&1 || rc=$?
	cat "$out" >>"$RLOG/$name.log"
	if [ $rc = 0 ] && ! grep -q -E -i "$SPATCH_ERRORS" "$out"; then
		tmp=$(mktemp -d "${TMPDIR:-/tmp}/spatch-cache.XXXXXX")
		cp "$out" "$tmp/log"
		if [ "$mode" = patch ]; then
			cp "$wt/$file" "$tmp/result"
		else
			tail -c +$((size + 1)) "$CPU_ALLOC_TARGETS" >"$tmp/result"
		fi
		cache_put "$tmp" "$dir"
	fi
	rm -f "$out"
	return $rc
}

# apply_cocci NAME: run coccinelle/NAME.cocci in place in $WT.
cocci_hash='' cocci_hashed='' targets_hash='' targets_mode=''
apply_cocci() {
	local name=$1 f=$COCCI/$1.cocci opts file wt
	targets_mode=
	[ -f "$f" ] || die "no semantic patch $f"
	opts=$(cocci_meta "$f" Options)
	wt=$(cd "$WT" && pwd)
	mkdir -p "$RLOG"
	: >"$RLOG/$name.log"
	expand_files "$name" >"$RLOG/$name.files"
	# "// Targets: collected": a first pass over all the files finds the
	# targets from their allocations (-D collect, see
	# coccinelle/lib/cpu_alloc.cocci), then the patch pass reads them.
	if [ "$(cocci_meta "$f" Targets)" = collected ]; then
		export CPU_ALLOC_TARGETS=$RLOG/$name.targets
		: >"$CPU_ALLOC_TARGETS"
		while read -r file; do
			# shellcheck disable=SC2086 # Options are passed verbatim
			spatch_cached collect "$file" $opts ||
				die "spatch -D collect failed on $file with $name.cocci" "see: $RLOG/$name.log"
		done <"$RLOG/$name.files"
		LC_ALL=C sort -u -o "$CPU_ALLOC_TARGETS" "$CPU_ALLOC_TARGETS"
	fi
	while read -r file; do
		# shellcheck disable=SC2086 # Options are passed verbatim
		spatch_cached patch "$file" $opts ||
			die "spatch failed on $file with $name.cocci" "see: $RLOG/$name.log"
	done <"$RLOG/$name.files"
	unset CPU_ALLOC_TARGETS
	grep -E -i "$SPATCH_ERRORS" "$RLOG/$name.log" &&
		die "spatch reported errors with $name.cocci" "see: $RLOG/$name.log"
	return 0
}

# identity_of COMMIT [author]: export the committer (and author) name,
# e-mail and date of COMMIT for the next git commit or cherry-pick.
identity_of() {
	local an ae ad cn ce cd
	{ read -r an; read -r ae; read -r ad; read -r cn; read -r ce; read -r cd; } < <(
		git -C "$SRC" log -1 --date=raw --format='%an%n%ae%n%ad%n%cn%n%ce%n%cd' "$1")
	export GIT_COMMITTER_NAME=$cn GIT_COMMITTER_EMAIL=$ce GIT_COMMITTER_DATE=$cd
	[ "${2:-}" = author ] && export GIT_AUTHOR_NAME=$an GIT_AUTHOR_EMAIL=$ae GIT_AUTHOR_DATE=$ad
	return 0
}
identity_reset() {
	unset GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_AUTHOR_DATE \
	      GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL GIT_COMMITTER_DATE
}

# commit_generated NAME [STORED]: commit the work of NAME in $WT, with
# the identity and dates of STORED when given.
commit_generated() {
	local name=$1 stored=${2:-}
	git -C "$WT" add -u
	[ -n "$stored" ] && identity_of "$stored" author
	message "$name" "$stored" | git -C "$WT" commit -q --no-verify --allow-empty --cleanup=verbatim -F -
	identity_reset
}

# patch_of COMMIT: the commit as a stable patch.
patch_of() {
	git -C "$WT" format-patch -1 --stdout --zero-commit --no-signature -k \
		--no-numbered --full-index "$1"
}

# changed_lines PATCH: "file:line:+text" for every line a patch removes
# (old line number) or adds (new line number); a message line counts too.
changed_lines() {
	awk '
	/^diff --git / { f = $4; body = 1; next }
	!body { print "msg:" NR ":" $0; next }
	/^@@ / { split($2, o, ","); split($3, n, ","); ol = -o[1]; nl = n[1] + 0; next }
	/^(---|\+\+\+) / { next }
	/^-/ { print f ":" ol ":" $0; ol++; next }
	/^\+/ { print f ":" nl ":" $0; nl++; next }
	/^ / { ol++; nl++ }
	' "$1"
}

# compare NAME STORED NEW: print the REGEN line; return 1 if different.
compare() {
	local a b n
	a=$(mktemp) b=$(mktemp)
	patch_of "$2" >"$a"
	patch_of "$3" >"$b"
	if cmp -s "$a" "$b"; then
		info REGEN "$1.cocci  same"
		rm -f "$a" "$b"
		return 0
	fi
	n=$(diff <(changed_lines "$a") <(changed_lines "$b") | grep -c '^[<>]' || true)
	info REGEN "$1.cocci  DIFFERS ($n sites)"
	diff -u --label "stored/$1" --label "regenerated/$1" "$a" "$b" | sed 's/^/    /' || true
	rm -f "$a" "$b"
	return 1
}

setup_wt() {
	if git -C "$SRC" worktree list --porcelain | grep -qx "worktree $REGEN_WT"; then
		git -C "$SRC" worktree remove --force "$REGEN_WT"
	fi
	rm -rf "$REGEN_WT"
	mkdir -p "$(dirname "$REGEN_WT")"
	git -C "$SRC" worktree add -q --detach "$REGEN_WT" "$1"
	WT=$REGEN_WT
}

# --apply NAME: generate one commit on the HEAD of $SRC itself.
if [ "${1:-}" = --apply ]; then
	[ $# = 2 ] || die "usage: $0 --apply NAME.cocci"
	name=$(basename "$2" .cocci)
	tree_dirty && die "$SRC has uncommitted changes" "commit or stash them first"
	WT=$SRC
	# a failure leaves the work tree as it was: the files spatch
	# rewrote before it failed on another are put back
	if ! (apply_cocci "$name"); then
		git -C "$SRC" checkout -q -f HEAD -- .
		die "$name.cocci made no commit; $SRC is back at its HEAD"
	fi
	commit_generated "$name"
	info APPLY "$name.cocci -> $(git -C "$SRC" log -1 --format='%h %s')"
	exit 0
fi
[ $# = 0 ] || die "usage: $0 [--apply NAME.cocci]"

BASE=$(lock_get BASE_COMMIT)
[ -n "$BASE" ] || die "kernel-base.lock has no BASE_COMMIT" "run: make relock"
[ -d "$SRC/.git" ] || die "no kernel tree in $SRC" "run: make tree"
OLD=$(resolve "refs/heads/$BRANCH")
git -C "$SRC" merge-base --is-ancestor "$BASE" "$OLD" ||
	die "$BRANCH does not contain the base $BASE" "run: make tree"
if [ "$UPDATE" = 1 ] && tree_dirty; then
	die "$SRC has uncommitted changes; UPDATE=1 would rewrite $BRANCH under them" \
	    "commit or stash them first"
fi

mkdir -p "$RLOG"
setup_wt "$BASE"
trap 'info NOTE "scratch worktree left in $REGEN_WT"' ERR

status=0
declare -A used=()
for c in $(git -C "$SRC" rev-list --reverse --first-parent "$BASE..$OLD"); do
	name=$(git -C "$SRC" log -1 --format=%B "$c" |
		git interpret-trailers --parse | sed -n 's|^Semantic-patch: coccinelle/\(.*\)\.cocci$|\1|p' | head -n1)
	if [ -z "$name" ]; then
		identity_of "$c"
		git -C "$WT" cherry-pick --allow-empty --keep-redundant-commits "$c" >"$RLOG/pick.log" 2>&1 ||
			die "commit $(git -C "$SRC" log -1 --format='%h %s' "$c") does not apply on the regenerated series" \
			    "see: $RLOG/pick.log and the worktree $REGEN_WT"
		identity_reset
		continue
	fi
	[ -f "$COCCI/$name.cocci" ] ||
		die "commit $(git -C "$SRC" log -1 --format=%h "$c") was generated by coccinelle/$name.cocci, which does not exist"
	used[$name]=1
	apply_cocci "$name"
	commit_generated "$name" "$c"
	compare "$name" "$c" "$(git -C "$WT" rev-parse HEAD)" || status=1
done

for f in "$COCCI"/*.cocci; do
	[ -e "$f" ] || continue
	name=$(basename "$f" .cocci)
	[ -n "${used[$name]:-}" ] && continue
	apply_cocci "$name"
	n=$(git -C "$WT" diff | grep -c '^[-+][^-+]' || true)
	commit_generated "$name"
	info REGEN "$name.cocci  new ($n sites)"
	status=1
done

NEW=$(git -C "$WT" rev-parse HEAD)
# Keep the scratch worktree only when it shows something.
if [ "$status" = 0 ] || [ "$UPDATE" = 1 ]; then
	git -C "$SRC" worktree remove --force "$REGEN_WT"
else
	info NOTE "regenerated series in $REGEN_WT (detached HEAD $(git -C "$WT" rev-parse --short HEAD))"
fi
if [ "$UPDATE" = 1 ]; then
	if [ "$NEW" = "$OLD" ]; then
		info UPDATE "$BRANCH is up to date"
	elif [ "$(git -C "$SRC" symbolic-ref -q --short HEAD || true)" = "$BRANCH" ]; then
		git -C "$SRC" reset -q --keep "$NEW"
		info UPDATE "$BRANCH: $(git -C "$SRC" log -1 --format=%h "$OLD") -> $(git -C "$SRC" log -1 --format=%h "$NEW")"
	else
		git -C "$SRC" update-ref "refs/heads/$BRANCH" "$NEW" "$OLD"
		info UPDATE "$BRANCH: $(git -C "$SRC" log -1 --format=%h "$OLD") -> $(git -C "$SRC" log -1 --format=%h "$NEW")"
	fi
	[ "$NEW" = "$OLD" ] || echo "now run: make export"
	exit 0
fi
exit $status
