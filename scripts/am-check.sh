#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make am-check: does commits/*.patch apply with plain `git am`?
#
#  1. Onto a fresh import of the pinned base (Debian's linux-source-6.1),
#     and the result is the branch's tree.  Any failure here fails.
#  2. Onto plain upstream 6.1.y: the linux_<v>.orig.tar.xz tarballs of
#     Debian's `linux` source package (upstream minus a few non-free
#     files), each imported like the base (scripts/tree.sh, fixed
#     identity and date).  Plain `git am`, then `git am -3`, of the
#     whole series; a table says how far each got and why it stopped.
#
# The archive is asked through a private apt configuration under
# $WORK/am-check/apt (deb-src entries derived from the machine's Debian
# deb entries; the system's sources, lists and cache are not touched).
# The tarballs are cached in $AM_CACHE/<v>-<sha256>/ (see lib.sh:
# outside $WORK); the imported trees are removed when the run ends.
# Logs: $WORK/am-check/logs.
#
# Settings:
#   (none)            the NEWEST 6.1.y the archive really delivers (a
#                     listed version whose file is gone, 404, is skipped
#                     with a line saying so, and the next older is tried)
#   AM_ALL=1          every 6.1.y the archive lists
#   AM_VERSIONS="6.1.176 6.1.187"  those (a Debian revision such as
#                     6.1.176-1 names the same tarball); "none": the
#                     pinned base only (no network)
#   AM_ALSO=...       the old name of AM_VERSIONS
#
# Exit status: non-zero if the series does not apply onto the pinned
# base, if no plain 6.1.y could be fetched at all (network or archive
# problem), if a version named in AM_VERSIONS could not be fetched, or
# if the series applies onto the newest version checked with neither
# `git am` nor `git am -3`.  Older versions are reported, not judged:
# the series is made for the newest 6.1.y.
#
#   am-check.sh                 the check
#   am-check.sh --parse LOG     one result line from a git am log (tests)
#   am-check.sh --table FILE    the table from result lines (tests)
. "$(dirname "$0")/lib.sh"

dir=$WORK/am-check
trees=$dir/trees
cache=$AM_CACHE
logs=$dir/logs
aptdir=$dir/apt
SRCPKG=linux
APT_HELPER=${APT_HELPER:-/usr/lib/apt/apt-helper}
# Where the machine's apt sources are (the selftest points it elsewhere).
APT_SOURCES_DIR=${APT_SOURCES_DIR:-/etc/apt}

export GIT_COMMITTER_NAME="$BASE_IDENT_NAME" GIT_COMMITTER_EMAIL="$BASE_IDENT_EMAIL"

# --- parsing git am's output ------------------------------------------

# parse_am LOG NPATCHES: "applied|first|why" for the git am run
# whose output is LOG: how many patches went in, the number of the one
# that stopped it (empty if none did), and why in a few words, with the
# files and hunks git names.
parse_am() {
	local log=$1 n=$2 first why
	first=$(sed -n 's/^Patch failed at \([0-9]\{1,\}\) .*/\1/p' "$log" | head -n1)
	if [ -z "$first" ]; then
		if grep -q '^Applying: ' "$log" || ! grep -qE '^(error|fatal): ' "$log"; then
			printf '%s||\n' "$n"
			return 0
		fi
		# git am gave up before the first patch (a broken mbox).
		why=$(grep -E '^(error|fatal): ' "$log" | head -n1 | sed -E 's/^(error|fatal): //')
		printf '0|0001|%s\n' "${why//|//}"
		return 0
	fi
	why=$(awk '
		function add(s) { if (!(s in seen)) { seen[s] = 1; out = out (out == "" ? "" : "; ") s } }
		/^error: patch failed: / { sub(/^error: patch failed: /, ""); add("hunk " $0 " does not apply"); next }
		/^error: .*: does not exist in index$/ { sub(/^error: /, ""); sub(/: does not exist in index$/, ""); add($0 " does not exist"); next }
		/^error: .*: No such file or directory$/ { sub(/^error: /, ""); sub(/: No such file or directory$/, ""); add($0 " does not exist"); next }
		/^error: .*: already exists in (index|working directory)$/ { sub(/^error: /, ""); sub(/: already exists in .*$/, ""); add($0 " exists already"); next }
		/^error: sha1 information is lacking or useless/ {
			f = $0; sub(/^[^(]*\(/, "", f); sub(/\)\.?$/, "", f)
			add("no 3-way base: the blob of " f " is not in this repository"); next }
		/^CONFLICT / { sub(/^CONFLICT \([^)]*\): /, ""); sub(/^Merge conflict in /, "3-way conflict in "); add($0); next }
		/^error: invalid object [0-9]+ [0-9a-f]+ for / {
			f = $0; sub(/^error: invalid object [0-9]+ [0-9a-f]+ for /, "", f); gsub(/\047/, "", f)
			add("no 3-way base: the blob of " f " is not in this repository"); next }
		/^error: corrupt patch/ || /^error: patch fragment without header/ { sub(/^error: /, ""); add($0); next }
		END { print out }
	' "$log")
	[ -n "$why" ] || why=$(grep -E '^(error|fatal): ' "$log" | grep -v 'Failed to merge in the changes' |
		head -n1 | sed -E 's/^(error|fatal): //')
	why=${why//|//}
	printf '%s|%s|%s\n' "$((10#$first - 1))" "$first" "${why:-see the log}"
}

# patch_name NUMBER: the commits/ file with that position, short.
patch_name() {
	local p
	[[ ${1:-} =~ ^[0-9]+$ ]] || { printf '%s' "${1:-}"; return 0; }
	p=$(ls "$COMMITS" 2>/dev/null | grep -E '\.patch$' | sed -n "$((10#$1))p")
	printf '%s' "${p:-$1}" | cut -c1-40
}

# table FILE: the results table.  FILE has one line a version:
#   version|what|n|applied|first|why|applied3|first3|why3
# ("what" is "base" or "plain"; a version that could not be had has
# applied "-" and the reason in why).
table() {
	local f=$1 v what n a first why a3 first3 why3 am am3
	printf '%-17s %-7s %-7s %-40s %s\n' version "git am" "am -3" "first failing patch" "why"
	while IFS='|' read -r v what n a first why a3 first3 why3; do
		[ "$what" = base ] && v="$v (base)"
		if [ "$a" = - ]; then
			printf '%-17s %-7s %-7s %-40s %s\n' "$v" - - - "$why"
			continue
		fi
		am="$a/$n" am3=${a3:+$a3/$n}
		[ -n "$first" ] || { first=- why=-; }
		[ -n "$am3" ] || am3=-
		printf '%-17s %-7s %-7s %-40s %s\n' "$v" "$am" "$am3" "$(patch_name "$first")" "$why"
		if [ -n "$first3" ] && { [ "$first3" != "$first" ] || [ "$why3" != "$why" ]; }; then
			printf '%-17s %-7s %-7s %-40s %s\n' "  with -3" "" "" "$(patch_name "$first3")" "$why3"
		fi
	done <"$f"
}

case "${1:-}" in
--parse) parse_am "$2" "${3:-13}"; exit 0 ;;
--table) table "$2"; exit 0 ;;
"") ;;
*) die "unknown argument '$1'" "usage: am-check.sh [--parse LOG [N] | --table FILE]" ;;
esac

# --- the settings -----------------------------------------------------

if [ -n "${AM_ALSO:-}" ] && [ -z "${AM_VERSIONS:-}" ]; then
	warn "AM_ALSO is now AM_VERSIONS (plain 6.1.y from the linux source package)"
	AM_VERSIONS=$AM_ALSO
fi
mode=newest
want=()
if [ -n "${AM_VERSIONS:-}" ]; then
	mode=named
	for v in $AM_VERSIONS; do
		case "$v" in
		none) mode=none ;;
		6.1.[0-9]*) ;;
		*) die "AM_VERSIONS: '$v' is not a 6.1.y version" \
			"give upstream versions such as AM_VERSIONS=\"6.1.176 6.1.187\", or AM_VERSIONS=none" ;;
		esac
		[ "$v" = none ] && continue
		u=${v%%-*}
		[[ $u =~ ^6\.1\.[0-9]+$ ]] || die "AM_VERSIONS: '$v' is not a 6.1.y version" \
			"give upstream versions such as AM_VERSIONS=\"6.1.176 6.1.187\", or AM_VERSIONS=none"
		want+=("$u")
	done
	[ "$mode" = none ] && [ ${#want[@]} -gt 0 ] && die "AM_VERSIONS: 'none' goes alone"
elif [ "${AM_ALL:-0}" = 1 ]; then
	mode=all
elif [ -n "${AM_ALL:-}" ] && [ "${AM_ALL}" != 0 ]; then
	die "AM_ALL='$AM_ALL': say AM_ALL=1 (every version) or leave it out (the newest)"
fi

patches=("$COMMITS"/*.patch)
[ -e "${patches[0]}" ] || { info AM "no patches in commits/: nothing to apply"; exit 0; }
npatches=${#patches[@]}
base=$(lock_get BASE_COMMIT)

# --- the state of an earlier run --------------------------------------

mkdir -p "$dir"
lock_dir "$dir"
# The layout of the first am-check: a tree it always left behind.
if [ -d "$dir/linux" ] || compgen -G "$dir/am-*.log" >/dev/null; then
	info CLEAN "the old am-check layout in $dir (linux/, am-*.log)"
	rm -rf "$dir/linux" "$dir"/am-*.log "$dir"/6.1.*-*/
fi
if [ -e "$trees" ]; then
	die "an earlier make am-check was interrupted: its trees are still in $trees" \
	    "nothing was changed; remove them and run again: rm -rf $trees"
fi
if compgen -G "$cache/*/*.part" >/dev/null; then
	die "an earlier make am-check was interrupted in a download: $(compgen -G "$cache/*/*.part" | head -n1)" \
	    "nothing was changed; remove it and run again: rm -f $cache/*/*.part"
fi

# --- asking the archive -----------------------------------------------

APT_OPTS=(-o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$aptdir/sources.list.d"
	-o "Dir::State::Lists=$aptdir/lists" -o "Dir::Cache=$aptdir/cache"
	-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache="
	-o "APT::Update::Post-Invoke-Success::=" -o "APT::Update::Post-Invoke::="
	-o "Acquire::Languages=none")
[ "$(id -u)" = 0 ] && APT_OPTS+=(-o "APT::Sandbox::User=root")

# deb_src_sources: deb-src stanzas (deb822) for the machine's Debian
# bookworm deb entries, one-line and deb822 alike, main only.
deb_src_sources() {
	local f
	for f in "$APT_SOURCES_DIR/sources.list" "$APT_SOURCES_DIR"/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" {
			i = 2; opts = ""
			if ($2 ~ /^\[/) { while ($i !~ /\]$/) { opts = opts " " $i; i++ } opts = opts " " $i; i++ }
			uri = $i; suite = $(i + 1)
			if (suite !~ /^bookworm(-updates|-security)?$/) next
			signed = ""
			if (match(opts, /signed-by=[^] ]*/)) signed = substr(opts, RSTART + 10, RLENGTH - 10)
			print "Types: deb-src"; print "URIs: " uri; print "Suites: " suite; print "Components: main"
			if (signed != "") print "Signed-By: " signed
			print ""
		}' "$f"
	done
	for f in "$APT_SOURCES_DIR"/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v RS= -F '\n' '{
			types = ""; uris = ""; suites = ""; signed = ""; enabled = "yes"
			for (i = 1; i <= NF; i++) {
				l = $i
				if (l ~ /^#/) continue
				k = tolower(l); sub(/:.*/, "", k); v = l; sub(/^[^:]*:[ \t]*/, "", v)
				if (k == "types") types = v
				else if (k == "uris") uris = v
				else if (k == "suites") suites = v
				else if (k == "signed-by") signed = v
				else if (k == "enabled") enabled = tolower(v)
			}
			if (enabled == "no" || (" " types " ") !~ / deb /) next
			n = split(suites, s, /[ \t]+/); keep = ""
			for (i = 1; i <= n; i++) if (s[i] ~ /^bookworm(-updates|-security)?$/) keep = keep " " s[i]
			if (keep == "") next
			print "Types: deb-src"; print "URIs: " uris; print "Suites:" keep; print "Components: main"
			if (signed != "" && signed !~ /^-/) print "Signed-By: " signed
			print ""
		}' "$f"
	done
}

# offered: the Debian versions of the source package linux that the
# index lists, "upstream debian" a line, newest first.
offered() {
	apt-cache "${APT_OPTS[@]}" madison "$SRCPKG" 2>/dev/null |
		awk -F'|' '$3 ~ /Sources/ { gsub(/[ \t]/, "", $2); print $2 }' |
		grep -E '^6\.1\.[0-9]+-' | sort -u -V -r |
		awk '{ u = $1; sub(/-[^-]*$/, "", u); print u, $1 }'
}

# orig_uri DEBVERSION: "url file size sha256" of the .orig.tar.xz that
# apt names for linux=DEBVERSION (the checksum is the .dsc's).
orig_uri() {
	(cd "$aptdir" && apt-get "${APT_OPTS[@]}" source --print-uris "$SRCPKG=$1" 2>/dev/null) |
		awk '$2 ~ /\.orig\.tar\.xz$/ { gsub(/'\''/, "", $1); sub(/^SHA256:/, "", $4); print $1, $2, $3, $4; exit }'
}

# fetch UPSTREAM DEBVERSION: the cached tarball of 6.1.y (downloaded
# once, checked against the .dsc's SHA256); prints its path, or the
# reason it could not be had on stdout with status 1.
fetch() {
	local u=$1 d=$2 line url file size sum c out
	line=$(orig_uri "$d")
	[ -n "$line" ] || { echo "apt names no .orig.tar.xz for $SRCPKG=$d"; return 1; }
	read -r url file size sum <<<"$line"
	c=$cache/$u-$sum
	if [ -f "$c/$file" ]; then
		echo "$c/$file"
		return 0
	fi
	mkdir -p "$c"
	info FETCH "$file ($((size / 1000000)) MB) for $u" >&2
	if ! out=$(cd "$c" && "$APT_HELPER" "${APT_OPTS[@]}" download-file "$url" "$file.part" "SHA256:$sum" 2>&1); then
		rm -f "$c/$file.part"
		rmdir "$c" 2>/dev/null || true
		out=$(printf '%s\n' "$out" | grep -E '^(Err|E):|[0-9]{3} ' | grep -oE '[0-9]{3} +[A-Z][A-Za-z ]+|Hash Sum mismatch|Could not [a-z ]+|Temporary failure[a-z ]*|Connection failed' | head -n1 | sed 's/  */ /g')
		out=${out% }
		echo "cannot be fetched: ${out:-download failed} ($url)"
		return 1
	fi
	mv "$c/$file.part" "$c/$file"
	echo "$c/$file"
}

# From here on, what an interrupted run leaves is removed on the way out.
trap 'rm -rf "$trees"; rm -f "$cache"/*/*.part' EXIT
mkdir -p "$logs"
: >"$logs/results"
results=$logs/results
declare -A debver=()
fetched=() notes=()
if [ "$mode" != none ]; then
	mkdir -p "$aptdir/sources.list.d" "$aptdir/lists/partial" "$aptdir/cache/archives/partial"
	deb_src_sources >"$aptdir/sources.list.d/am-check.sources.new"
	[ -s "$aptdir/sources.list.d/am-check.sources.new" ] ||
		die "found no Debian bookworm deb entry in $APT_SOURCES_DIR/sources.list*" \
		    "am-check derives its deb-src entries from them; AM_VERSIONS=none checks the pinned base only"
	mv "$aptdir/sources.list.d/am-check.sources.new" "$aptdir/sources.list.d/am-check.sources"
	info APT "update the source index (private: $aptdir)"
	if ! apt-get "${APT_OPTS[@]}" -q update >"$logs/apt-update.log" 2>&1; then
		if compgen -G "$aptdir/lists/*Sources*" >/dev/null; then
			warn "the source index could not be updated, the last one is used (log: $logs/apt-update.log)"
		else
			sed 's/^/    /' "$logs/apt-update.log" | grep -E '^    (E|W|Err):' | head -n 5 >&2 || true
			die "cannot read the source index of Debian's archive: network or archive problem" \
			    "nothing was changed; log: $logs/apt-update.log" \
			    "check: apt-get update; then run make am-check again" \
			    "or check the pinned base alone (no network): make am-check AM_VERSIONS=none"
		fi
	fi
	mapfile -t offer < <(offered)
	[ ${#offer[@]} -gt 0 ] ||
		die "the archive's source index lists no 6.1.y of the source package $SRCPKG: network or archive problem" \
		    "log: $logs/apt-update.log" \
		    "check: apt-get update; then run make am-check again" \
		    "or check the pinned base alone (no network): make am-check AM_VERSIONS=none"
	ups=()
	for l in "${offer[@]}"; do
		read -r u d <<<"$l"
		[ -n "${debver[$u]:-}" ] && continue
		debver[$u]=$d
		ups+=("$u")
	done
	info APT "the archive lists ${#ups[@]} plain 6.1.y: $(printf '%s ' "${ups[@]}")"
	if [ "$mode" = named ]; then
		for u in "${want[@]}"; do
			[ -n "${debver[$u]:-}" ] || die "$u is not a 6.1.y the archive offers" \
				"offered: $(printf '%s ' "${ups[@]}")" "nothing was changed"
		done
		mapfile -t ups < <(printf '%s\n' "${want[@]}" | sort -u -V -r)
	fi
	for u in "${ups[@]}"; do
		if out=$(fetch "$u" "${debver[$u]}"); then
			fetched+=("$u=$out")
			[ "$mode" = newest ] && break
		else
			info SKIP "$u: $out"
			notes+=("$u|plain|$npatches|-||${out//|//}")
		fi
	done
	if [ ${#fetched[@]} = 0 ]; then
		die "none of the plain 6.1.y that the archive lists could be fetched: network or archive problem" \
		    "check: apt-get source --print-uris $SRCPKG=${offer[0]#* } (with deb-src entries), then fetch the .orig.tar.xz URL" \
		    "run make am-check again later, or check the pinned base alone: make am-check AM_VERSIONS=none"
	fi
	if [ "$mode" = named ] && [ ${#notes[@]} -gt 0 ]; then
		named_missing=1
	fi
fi

# --- applying ---------------------------------------------------------

# One repository for every import: tree.sh import-fast writes each
# tarball straight into it (the pinned one must give kernel-base.lock's
# BASE_COMMIT, so it is the commit make tree imports), a blob already
# there is not written again, and only the files the series touches are
# checked out (sparse): a 6.1.y costs seconds, not a 1.3 GB work tree.
# git am -3 finds the pinned base's blobs here, as it would in a
# linux-stable clone that has v6.1.192.
repo=$trees/repo
mkdir -p "$trees"
git init -q -b am-check "$repo"
git -C "$repo" config core.autocrlf false
git -C "$repo" config gc.auto 0
sed -n 's|^diff --git a/\([^ ]*\) b/\([^ ]*\)$|/\1\n/\2|p' "${patches[@]}" | sort -u >"$trees/paths"
git -C "$repo" sparse-checkout set --no-cone --stdin <"$trees/paths"

# import TARBALL SUBJECT BODY: the commit id of the tarball's import.
import() { "$TOP/scripts/tree.sh" import-fast "$1" "$repo" "$2" "$3" | tail -n1; }

# am LABEL COMMIT ARGS...: the series with git am ARGS onto COMMIT;
# result line "applied|first|why" on stdout, the log kept.
am() {
	local label=$1 c=$2 log
	shift 2
	log=$logs/am-$label.log
	git -C "$repo" am --abort >/dev/null 2>&1 || true
	git -C "$repo" checkout -q -f -B am-check "$c"
	git -C "$repo" -c core.autocrlf=false -c am.keepcr=false -c rerere.enabled=false \
		am --committer-date-is-author-date "$@" "${patches[@]}" >"$log" 2>&1 || true
	parse_am "$log" "$npatches"
}

# The pinned base: plain git am, and the tree is the branch's.
fail=0
label=base-$(lock_get VERSION)
info IMPORT "$(lock_get TARBALL) (fresh, into $repo)"
id=$(import "$(lock_get TARBALL)" "Import $(lock_get PACKAGE) $(lock_get VERSION)" \
	"The unmodified contents of $(basename "$(lock_get TARBALL)") from the Debian package $(lock_get PACKAGE) $(lock_get VERSION).")
[ "$id" = "$base" ] || die "a fresh import gives $id, but kernel-base.lock says $base" "run: make relock"
IFS='|' read -r a first why < <(am "$label" "$id" --no-3way)
if [ -z "$first" ]; then
	info OK "git am onto $label: $npatches patches"
	if [ -d "$SRC/.git" ] && kgit rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null; then
		# The same tree as the branch, if the branch is what commits/ holds.
		if "$TOP/scripts/export.sh" --compare; then
			git -C "$repo" fetch -q "$SRC" "$BRANCH"
			if [ "$(git -C "$repo" rev-parse 'HEAD^{tree}')" = "$(git -C "$repo" rev-parse 'FETCH_HEAD^{tree}')" ]; then
				info OK "the applied tree is branch $BRANCH's"
			else
				info FAIL "the applied tree differs from branch $BRANCH"
				fail=1
			fi
		else
			info SKIP "branch $BRANCH of $SRC is not what commits/ holds: its tree is not compared"
		fi
	else
		info SKIP "no branch $BRANCH in $SRC: its tree is not compared (make tree)"
	fi
else
	info FAIL "git am onto $label stops at: $first $(patch_name "$first"): $why (log: $logs/am-$label.log)"
	fail=1
fi
printf '%s|base|%s|%s|%s|%s|||\n' "$(lock_get VERSION)" "$npatches" "$a" "$first" "$why" >>"$results"

# Plain 6.1.y, newest first: git am, then git am -3, from the import.
newest_ok=1 newest=
for f in "${fetched[@]}"; do
	u=${f%%=*} tarball=${f#*=}
	info IMPORT "$(basename "$tarball")"
	id=$(import "$tarball" "Import linux $u" \
		"The unmodified contents of $(basename "$tarball") of the Debian source package linux (upstream 6.1.y minus a few non-free files).")
	IFS='|' read -r a first why < <(am "$u" "$id" --no-3way)
	IFS='|' read -r a3 first3 why3 < <(am "$u-3way" "$id" -3)
	info AM "$u: git am $a/$npatches${first:+ (stops at $first: $why)}; git am -3 $a3/$npatches${first3:+ (stops at $first3: $why3)}"
	printf '%s|plain|%s|%s|%s|%s|%s|%s|%s\n' "$u" "$npatches" "$a" "$first" "$why" "$a3" "$first3" "$why3" >>"$results"
	if [ -z "$newest" ]; then
		newest=$u
		[ -z "$first" ] || [ -z "$first3" ] || newest_ok=0
	fi
done
git -C "$repo" am --abort >/dev/null 2>&1 || true
rm -rf "$trees"
for n in "${notes[@]}"; do printf '%s\n' "$n" >>"$results"; done
{ head -n1 "$results"; tail -n +2 "$results" | sort -t'|' -k1,1Vr; } >"$results.sorted"
mv "$results.sorted" "$results"
echo
table "$results"
echo
echo "logs: $logs/am-*.log"
[ $fail = 0 ] || die "the series does not apply onto the pinned base" "logs: $logs/am-$label.log"
[ $newest_ok = 1 ] || die "the series applies onto $newest, the newest plain 6.1.y checked, with neither git am nor git am -3" \
	"logs: $logs/am-$newest.log $logs/am-$newest-3way.log"
[ -z "${named_missing:-}" ] || die "not every version of AM_VERSIONS could be fetched (see the table)"
exit 0
