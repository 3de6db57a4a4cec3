#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make check: checkpatch.pl and sparse on the series; only what is new
# fails.
#
# checkpatch: every commits/*.patch, with the flags of
# checkpatch/checkpatch.flags.  An ERROR or WARNING fails unless
# checkpatch/checkpatch.ignore lists its type for that patch; CHECKs
# (--strict) are reported and counted, not fatal.
#
# sparse: for each commit, the .c files it touches that the configuration
# builds are checked with C=2 at the commit (in $O, right after its
# build: make bisect-check does this as it goes, and make check builds
# a commit bisect-check has not done) and at the base (objects only, in
# $BASE_O).  A sparse warning that the base does not print (and
# checkpatch/sparse.ignore does not list) fails.  SPARSE=0 skips this
# half.
#
# CPU_PTR(): the head's mm/cpu_alloc_test.o has a probe that is
# CPU_PTR() alone, out of line; its disassembly must show no memory
# operand (lea and nops aside): the address is arithmetic on constants.
#
# CPU_FREE(): a probe file compiled with mm/cpu_alloc_test.o's command
# line must build with a typed pointer and fail with a void one.
#
# i386: the same .c files are compiled, at each commit and at the base,
# under a second configuration: ARCH=i386 with NUMA
# (checkpatch/i386-numa.config after qemu/cpu_alloc.config), where
# CPU_ALLOC is off, in $WORK/build-i386 (objects only).  A file the
# configuration does not build (by its Makefile line) is skipped.  An
# error or warning that the base does not print fails.  I386=0 skips.
#
# wide: a third configuration, x86_64 allmodconfig at the head with
# checkpatch/wide.config (no WERROR, no instrumentation), in
# $WORK/build-wide: every .c file of the series at the head, and a file
# the boot config does not build also at each commit that touches it;
# judged against the base as i386 is.  WIDE=0 skips; WIDE=only runs it
# alone (make test does, behind bisect-check), and a pass is kept: the
# same series checked again compiles nothing.  The files x86_64 does
# not build (arch/arm64, the ARM drivers) are compiled the same way
# under arm64 allmodconfig with Debian's cross compiler, in
# $WORK/build-arm64 (ARM64=0 leaves them out).  Then the files no
# configuration compiles are listed (logs/uncompiled.txt, and which
# compile each in logs/compiled-by.txt).
. "$(dirname "$0")/lib.sh"

[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
cp=$SRC/scripts/checkpatch.pl
[ -x "$cp" ] || die "no $cp" "run: make tree"
base=$(lock_get BASE_COMMIT)
mkdir -p "$LOGS"
mapfile -t flags < <(grep -v -e '^#' -e '^$' "$TOP/checkpatch/checkpatch.flags")
fail=0

# ignored_types PATCH: the checkpatch types checkpatch.ignore allows for PATCH.
ignored_types() {
	local glob type _
	while read -r glob type _; do
		case "$glob" in '#'*|'') continue ;; esac
		# shellcheck disable=SC2254
		case "$1" in $glob) echo "$type" ;; esac
	done <"$TOP/checkpatch/checkpatch.ignore"
}

# checkpatch.pl takes 3-5 s a patch: JOBS of them run at once, and the
# verdicts are read in order once all have ended.  /usr/bin comes first
# in PATH: checkpatch runs scripts/spdxcheck.py on new files with
# "env python3", and a python3 of pyenv or a venv ahead of Debian's
# lacks the ply and git modules (python3-ply, python3-git) it needs; it
# then fails with a traceback, and checkpatch does not notice.
# WIDE=only: the allmodconfig compiles alone; I386=only: the i386
# compile alone; no checkpatch or sparse then
only=
[ "$WIDE" = only ] && only=wide
if [ "$I386" = only ]; then
	[ -z "$only" ] || die "WIDE=only and I386=only together" "run them one at a time (make test runs both, behind bisect-check)"
	only=i386
fi
#
# Each run is kept in a cache ($CHECKPATCH_CACHE, see lib.sh; "none"
# turns it off), as ccache keeps a compile: under the hash of what
# decides its output (the patch and its name, the flags, perl's
# version, ~/.checkpatch.conf if there is one, and the tree checkpatch
# reads: checkpatch.pl, its word lists, MAINTAINERS, LICENSES, by the
# tree object of $SRC's HEAD; a dirty $SRC, where an untracked
# .checkpatch.conf could hide, is never cached).  A run whose helper
# failed (a traceback) is not kept.
cp_inputs=
if [ "$CHECKPATCH_CACHE" != none ] && [ -z "$only" ] && ! tree_dirty; then
	cp_inputs=$({
		echo "cpu-alloc checkpatch cache 1"
		perl -e 'print "$^V\n"'
		kgit rev-parse 'HEAD^{tree}'
		printf '%s\n' "${flags[@]}"
		# checkpatch's own options file outside the tree, if any
		if [ -f "$HOME/.checkpatch.conf" ]; then echo "conf $(sha256sum <"$HOME/.checkpatch.conf")"; fi
	})
fi
# checkpatch_run PATCH OUT: checkpatch.pl on PATCH, its output in OUT;
# from the cache when it holds the same run.
checkpatch_run() {
	local key dir tmp out
	if [ -n "$cp_inputs" ]; then
		key=$({ printf '%s\n' "$cp_inputs" "${1##*/}"; sha256sum <"$1" | cut -c1-64; } | sha256sum | cut -c1-64)
		dir=$CHECKPATCH_CACHE/${key:0:2}/$key
		if [ -f "$dir/done" ]; then
			# the output names the patch by its path, kept as @PATCH@
			out=$(cat "$dir/out")
			printf '%s\n' "${out//@PATCH@/$1}" >"$2"
			return 0
		fi
	fi
	# (its status says whether it complained: the output tells that)
	(cd "$SRC" && PATH=/usr/bin:$PATH "$cp" "${flags[@]}" "$1") >"$2" 2>&1 || true
	[ -n "$cp_inputs" ] || return 0
	grep -q '^Traceback' "$2" && return 0
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/checkpatch-cache.XXXXXX")
	out=$(cat "$2")
	if printf '%s\n' "${out//"$1"/@PATCH@}" >"$tmp/out"; then
		cache_put "$tmp" "$dir"
	else
		rm -rf "$tmp"
	fi
	return 0
}
for p in "$COMMITS"/*.patch; do
	[ -e "$p" ] || break
	[ -z "$only" ] || break
	name=${p##*/}
	checkpatch_run "$p" "$LOGS/checkpatch-${name%.patch}.txt" &
	job_slot
done
wait || true
np=0
for p in "$COMMITS"/*.patch; do
	[ -e "$p" ] || break
	np=$((np + 1))
	[ -z "$only" ] || continue
	name=${p##*/}
	out=$LOGS/checkpatch-${name%.patch}.txt
	ign=$(ignored_types "$name" | sort -u)
	bad=$(grep -E ': (ERROR|WARNING):[A-Z_]+:' "$out" | while IFS= read -r l; do
		t=$(echo "$l" | sed -E 's/.*: (ERROR|WARNING):([A-Z_]+):.*/\2/')
		echo "$ign" | grep -qxF "$t" || echo "$l"
	done || true)
	nchk=$(grep -c ': CHECK:' "$out" || true)
	# a check that did not run is not a pass (checkpatch ignores it)
	grep -q '^Traceback' "$out" && bad="${bad:+$bad
}a helper of checkpatch failed (make deps installs python3-ply and python3-git): see $out"
	if [ -n "$bad" ]; then
		info FAIL "checkpatch $name"
		echo "$bad" | sed 's/^/    /'
		fail=1
	else
		info OK "checkpatch $name ($nchk checks)"
	fi
done
[ $np = 0 ] && [ -z "$only" ] && info OK "checkpatch: no patches in commits/"

if [ "$SPARSE" = 1 ] && [ -z "$only" ] && [ $np -gt 0 ]; then
	command -v sparse >/dev/null || die "sparse is not installed" "run: make deps"
	lock_dir "$CHECKOUT"
	for id in $(kgit rev-list --reverse "$base..$BRANCH"); do
		short=${id:0:12}
		d=$(sparse_dir "$id")
		# make bisect-check ran sparse after its build of the commit;
		# otherwise the commit is built here (ccache makes that cheap)
		if [ ! -f "$d/lines" ]; then
			REV=$id "$TOP/scripts/build.sh" >"$LOGS/check-build-$short.log" 2>&1 || {
				tail -n 20 "$LOGS/check-build-$short.log" >&2
				die "cannot build $short for sparse" "log: $LOGS/check-build-$short.log"
			}
			sparse_commit "$id"
		fi
		# Only what this configuration builds: sparse on a file the
		# config leaves out checks nonsense (mm/kmemleak.c without
		# DEBUG_KMEMLEAK redefines the header's stubs).
		[ -s "$d/skipped" ] &&
			info SKIP "sparse $short: $(tr '\n' ' ' <"$d/skipped")not built by this configuration"
		if [ ! -s "$d/files" ]; then
			info OK "sparse $short: no built .c file touched"
			continue
		fi
		mapfile -t files <"$d/files"
		base_objs "${files[@]}"
		cp "$d/lines" "$LOGS/sparse-$short.txt"
		new=$(comm -23 "$d/lines" <(base_lines sparse) |
			grep -v -F -f <(grep -v '^#' "$TOP/checkpatch/sparse.ignore"; echo '#none#') || true)
		if [ -n "$new" ]; then
			info FAIL "sparse $short: new warnings in ${files[*]}"
			echo "$new" | sed 's/^/    /'
			fail=1
		else
			info OK "sparse $short: ${#files[@]} files, no new warnings"
		fi
	done
fi
# --- more configurations: i386 with NUMA, x86_64 allmodconfig --------

# mk_of CONFIGFILE ID PATH: MK = the Makefile PATH at commit ID, with
# its continued lines joined and the spellings of a symbol's value
# reduced to $(CONFIG_X): ${CONFIG_X} (dpaa2), $(CONFIG_X:m=y) (ixgbe),
# $(subst m,y,$(CONFIG_X)) (hv), and x86's $(BITS) (kasan_init_$(BITS).o)
# as CONFIGFILE has it; 1 when ID has no such file.  Kept for the
# process, per (BITS, ID, PATH): the head's Makefiles are read once for
# every file and configuration, not once each.
declare -A mk_cache=() mk_none=() bits_of=()
mk_of() {
	local cfg=$1 bits key
	bits=${bits_of[$cfg]:-}
	if [ -z "$bits" ]; then
		bits=32
		grep -q '^CONFIG_64BIT=y' "$cfg" && bits=64
		bits_of[$cfg]=$bits
	fi
	key="$bits $2:$3"
	[ -z "${mk_none[$key]:-}" ] || return 1
	if [ -z "${mk_cache[$key]+set}" ]; then
		# (a directory of this process's own: make test runs two make
		# checks at once, WIDE=only and I386=only)
		mkdir -p "$MKDIR"
		if ! kgit show "$2:$3" >"$MKDIR/Makefile" 2>/dev/null; then
			mk_none[$key]=1
			return 1
		fi
		mk_cache[$key]=$(sed -e ':a' -e '/\\$/{N;s/\\\n/ /;ba' -e '}' -e "s/\\\$(BITS)/$bits/g" \
			-e 's/\$[{]\(CONFIG_[A-Za-z0-9_]*\)[}]/$(\1)/g' -e 's/\$[(]\(CONFIG_[A-Za-z0-9_]*\):m=y[)]/$(\1)/g' \
			-e 's/\$[(]subst m,y,\$[(]\(CONFIG_[A-Za-z0-9_]*\)[)][)]/$(\1)/g' "$MKDIR/Makefile")
	fi
	MK=${mk_cache[$key]}
}

# kbuild_enabled CONFIGFILE NAME: true when the Makefile in MK (mk_of)
# builds NAME.o under CONFIGFILE: the line naming it is obj-y (or a
# composite object's -y), or names a CONFIG_ symbol that is set.  A
# composite object (nfs-y += iostat.o) is followed once to its own line.
kbuild_enabled() {
	local cfg=$1 name=$2 depth=${3:-0} line var sym
	line=$(printf '%s\n' "$MK" |
		grep -E "^[[:space:]]*[A-Za-z0-9_-]+(-\\\$\\(CONFIG_[A-Za-z0-9_]+\\)|-y|-objs)[[:space:]]*[:+]?=.*(^|[[:space:]/])$name\\.o([[:space:]]|\$)" |
		head -n1)
	[ -n "$line" ] || return 1
	var=$(echo "$line" | sed -E 's/^[[:space:]]*([^[:space:]:+=]+).*/\1/')
	sym=$(echo "$var" | sed -n -E 's/.*\$\((CONFIG_[A-Za-z0-9_]+)\)$/\1/p')
	if [ -n "$sym" ]; then
		grep -qE "^$sym=[ym]" "$cfg" || return 1
	fi
	case "$var" in
	obj-*) return 0 ;;
	esac
	# a part of a composite object: is that one built?
	[ "$depth" = 0 ] || return 0
	kbuild_enabled "$cfg" "${var%-*}" 1 && return 0
	# or of a list that an obj-y line takes in (mm/Makefile:
	# memory-hotplug-$(CONFIG_MEMORY_HOTPLUG) += memory_hotplug.o,
	# obj-y += $(memory-hotplug-y))
	printf '%s\n' "$MK" | grep -E '^[[:space:]]*obj-y[[:space:]]*[:+]?=' | grep -qF "\$(${var%-*}-y)"
}

# enabled_at CONFIGFILE ID FILE: true when the .c FILE is compiled
# under CONFIGFILE at commit ID, and then print the .c file whose object
# compiles it: FILE itself when the Makefile of its directory builds it
# (kbuild_enabled), or a .c file of the same directory that #includes
# it (kernel/sched/build_utility.c includes topology.c) and is itself
# built, when the CONFIG_ symbol of an "#ifdef CONFIG_..." around the
# #include, if there is one, is set.
enabled_at() {
	local cfg=$1 id=$2 f=$3 dir=${3%/*} name inc sym d rel up a
	name=$(basename "$f" .c)
	# arch/X/ is built only for X, whatever its Makefiles say
	case "$f" in
	arch/*/*)
		a=${f#arch/}
		[ "${a%%/*}" = "$(cfg_arch "$cfg")" ] || return 1
		;;
	esac
	# the Makefile of its directory, or of the two above it, which may
	# name it by a relative path (iwlwifi-objs += queue/tx.o)
	d=$dir rel=$name
	for up in 0 1 2; do
		if mk_of "$cfg" "$id" "$d/Makefile" && kbuild_enabled "$cfg" "$rel"; then
			echo "$f"
			return 0
		fi
		case "$d" in */*) ;; *) break ;; esac
		rel=${d##*/}/$rel d=${d%/*}
	done
	[ "${4:-0}" = 0 ] || return 1
	while IFS=: read -r _ inc line _; do
		[ "$inc" != "$f" ] || continue
		# the nearest #if above the #include, unless an #endif comes first
		sym=$(kgit show "$id:$inc" | awk -v n="$line" '
			NR < n { l[NR] = $0 }
			END {
				for (i = n - 1; i > 0; i--) {
					if (l[i] ~ /^#[ \t]*endif/) exit
					if (l[i] ~ /^#[ \t]*ifdef[ \t]+CONFIG_/) {
						s = l[i]; sub(/^#[ \t]*ifdef[ \t]+/, "", s); sub(/[ \t].*/, "", s)
						print s; exit
					}
					if (l[i] ~ /^#[ \t]*if/) exit
				}
			}')
		[ -z "$sym" ] || grep -qE "^$sym=[ym]" "$cfg" || continue
		enabled_at "$cfg" "$id" "$inc" 1 && return 0
	done < <(kgit grep -n -E "^#[[:space:]]*include[[:space:]]+\"$name\.c\"" "$id" -- "$dir/*.c")
	return 1
}

# cfg_arch CONFIGFILE: the arch/ directory CONFIGFILE builds: arm64,
# arm, or x86 (x86_64 and i386, and the fake tree of the selftest).
cfg_arch() {
	if grep -qx 'CONFIG_ARM64=y' "$1"; then
		echo arm64
	elif grep -qx 'CONFIG_ARM=y' "$1"; then
		echo arm
	else
		echo x86
	fi
}

# touched ID: the .c files commit ID adds or modifies.
touched() { kgit diff-tree --no-commit-id --name-only -r --diff-filter=AM "$1" -- '*.c'; }

# The cross compiler of the arm64 compile (Debian's gcc-aarch64-linux-gnu),
# and cross_of ARCH: the CROSS_COMPILE prefix for ARCH (none: the host's).
ARM64_CROSS=aarch64-linux-gnu-
cross_of() { [ "$1" != arm64 ] || echo "$ARM64_CROSS"; }

# xconfig_lines NAME ARCH ID FILES...: compile FILES at ID in the
# configuration of $WORK/build-NAME, objects only, and print its errors
# and warnings as "file: warning|error: text"; the log is
# $LOGS/NAME-build-<ID>.log.  The .config is put back first as
# configured: kconfig's syncconfig drops, at a commit that lacks them
# (the base), the symbols the series adds, and the next commit would
# take their defaults.
xconfig_lines() {
	local name=$1 arch=$2 id=$3 co=$WORK/checkout-$1 o=$WORK/build-$1
	shift 3
	git -C "$co" checkout -q -f --detach "$id"
	cmp -s "$o/.cpu-alloc-config" "$o/.config" || cp "$o/.cpu-alloc-config" "$o/.config"
	(cd "$o" && rm -f "${@/%.c/.o}")
	ARCH=$arch CROSS_COMPILE=$(cross_of "$arch") kmake "$co" "$o" -j"$JOBS" -k "${@/%.c/.o}" \
		>"$LOGS/$name-build-${id:0:12}.log" 2>&1 || true
	diag_lines sparse "$co" <"$LOGS/$name-build-${id:0:12}.log"
}

# need_base LINESFILE FILES...: the FILES whose compile printed the
# lines of LINESFILE and so need a baseline: those a line names, or all
# of them when a line names another file (a header they include).
need_base() {
	local lines=$1 f
	shift
	[ -s "$lines" ] || return 0
	while IFS= read -r f; do
		if printf '%s\n' "$@" | grep -qxF "$f"; then
			echo "$f"
		else
			printf '%s\n' "$@"
			return 0
		fi
	done < <(cut -d: -f1 "$lines" | sort -u)
}

# xconfig_run NAME ARCH LABEL: compile, in the configuration of
# $WORK/build-NAME, the files xfiles[ID] names at each commit ID, and
# judge each commit against the base: an error or warning the base
# does not print (nor checkpatch/build-warnings.ignore lists) fails,
# and so does a file whose object does not come out (it was not
# checked), unless the base has it and did not compile it either: the
# configuration does not build it after all (a Makefile condition that
# enabled_at cannot read, such as an ifneq block or a directory's own
# obj-$(CONFIG_...) line), which gets a SKIP line, is kept in
# .cpu-alloc-notbuilt and does not count as compiled by NAME.  A commit
# with no files prints xempty, when set.
#
# The head comes first, with every file any commit names that it has.
# At an earlier commit, a file is not compiled again when its compile
# there would read what it reads at the head: its object came out at
# the head, only .c and .h files change between that commit and the
# head, and the dependency list of the head's object (its .cmd file:
# the source and every header it read) names none of them, matched by
# file name wherever it lives.  Its lines are then the head's, judged
# with the head.  The base compiles only the files whose compile
# printed something or made no object (need_base): the others need no
# baseline.  A commit judged to fail is reported, and none after it.
xconfig_run() {
	local name=$1 arch=$2 label=$3 o=$WORK/build-$1 id short new files missing shared f pats nsame changed
	local base_txt=$LOGS/$1-base.txt base_built=$LOGS/$1-base-built.txt need=$LOGS/$1-need-base.txt
	local cmds=$LOGS/$1-head-cmds all=() compile=() at_head=() need_files=() req=() ids
	: >"$base_txt"
	: >"$base_built"
	: >"$need"
	: >"$o/.cpu-alloc-notbuilt"
	ids=$(kgit rev-list --reverse "$base..$BRANCH")
	# the head, with every file any commit names that the head has
	for id in $ids; do
		# shellcheck disable=SC2086
		printf '%s\n' ${xfiles[$id]:-}
	done | sort -u | grep . >"$LOGS/$name-all.txt" || true
	while IFS= read -r f; do
		[ -n "$(kgit ls-tree "$head" -- "$f")" ] && all+=("$f")
	done <"$LOGS/$name-all.txt"
	rm -rf "$cmds" && mkdir -p "$cmds"
	: >"$LOGS/$name-${head:0:12}.txt"
	: >"$LOGS/$name-head-built.txt"
	if [ ${#all[@]} != 0 ]; then
		info HEAD "$label: compiling ${#all[@]} files at the head"
		xconfig_lines "$name" "$arch" "$head" "${all[@]}" >"$LOGS/$name-${head:0:12}.txt"
		built_objs "$o" "${all[@]}" | sort >"$LOGS/$name-head-built.txt"
		need_base "$LOGS/$name-${head:0:12}.txt" "${all[@]}" >>"$need"
		comm -23 <(printf '%s\n' "${all[@]}" | sort) "$LOGS/$name-head-built.txt" >>"$need"
		# the head's dependency lists: the compiles below overwrite them
		while IFS= read -r f; do
			cp "$o/$(dirname "$f")/.$(basename "${f%.c}").o.cmd" "$cmds/${f//\//%}.cmd" 2>/dev/null || true
		done <"$LOGS/$name-head-built.txt"
	fi
	# each earlier commit: what it reads differently from the head
	# (CHECK_COMMITS=head: none)
	for id in $ids; do
		[ "$id" != "$head" ] || continue
		[ "$CHECK_COMMITS" = all ] || continue
		short=${id:0:12}
		read -r -a files <<<"${xfiles[$id]:-}"
		[ ${#files[@]} != 0 ] || continue
		compile=() at_head=()
		changed=$(kgit diff --name-only "$id" "$head")
		pats=$(printf '%s\n' "$changed" | sed 's|.*/|/|')
		if printf '%s\n' "$changed" | grep -qvE '\.(c|h)$'; then
			compile=("${files[@]}")
		else
			for f in "${files[@]}"; do
				if [ -f "$cmds/${f//\//%}.cmd" ] &&
					! grep -qF -f <(printf '%s\n' "$pats" | grep .) "$cmds/${f//\//%}.cmd"; then
					at_head+=("$f")
				else
					compile+=("$f")
				fi
			done
		fi
		printf '%s\n' "${at_head[@]}" | grep . >"$LOGS/$name-$short.athead" || true
		: >"$LOGS/$name-$short.txt"
		: >"$LOGS/$name-$short.built"
		[ ${#compile[@]} != 0 ] || continue
		xconfig_lines "$name" "$arch" "$id" "${compile[@]}" >"$LOGS/$name-$short.txt"
		built_objs "$o" "${compile[@]}" | sort >"$LOGS/$name-$short.built"
		need_base "$LOGS/$name-$short.txt" "${compile[@]}" >>"$need"
		comm -23 <(printf '%s\n' "${compile[@]}" | sort) "$LOGS/$name-$short.built" >>"$need"
	done
	# the base, for the files that need a baseline
	mapfile -t need_files < <(sort -u "$need" | grep . | comm -12 - <(printf '%s\n' "${xbase[@]}" | sort -u))
	if [ ${#need_files[@]} != 0 ]; then
		info BASE "$label: compiling ${#need_files[@]} files at the base for the baseline (the others printed nothing)"
		xconfig_lines "$name" "$arch" "$base" "${need_files[@]}" >"$base_txt"
		built_objs "$o" "${need_files[@]}" | sort >"$base_built"
	fi
	# the verdicts, commit by commit (CHECK_COMMITS=head: the head's)
	[ "$CHECK_COMMITS" = all ] ||
		info NOTE "$label: the head only (CHECK_COMMITS=head); make check compiles each commit's files at that commit"
	for id in $ids; do
		[ "$CHECK_COMMITS" = all ] || [ "$id" = "$head" ] || continue
		short=${id:0:12}
		read -r -a files <<<"${xfiles[$id]:-}"
		# the objects that must come out: the head's own files (one
		# that an earlier commit names may have left the build since)
		req=(${files[@]+"${files[@]}"})
		# the head is judged with every file compiled there, even when
		# it touches none itself (with CHECK_COMMITS=head, the only
		# judgement of the files of the earlier commits)
		if [ "$id" = "$head" ]; then
			cp "$LOGS/$name-head-built.txt" "$LOGS/$name-$short.built"
			: >"$LOGS/$name-$short.athead"
			mapfile -t files < <(printf '%s\n' ${all[@]+"${all[@]}"} ${files[@]+"${files[@]}"} | sort -u | grep .)
		fi
		if [ ${#files[@]} = 0 ]; then
			[ -z "$xempty" ] || info OK "$label $short: $xempty"
			continue
		fi
		new=$(comm -23 <(sort -u "$LOGS/$name-$short.txt") "$base_txt" |
			grep -v -F -f <(grep -v '^#' "$TOP/checkpatch/build-warnings.ignore"; echo '#none#') || true)
		if [ -n "$new" ]; then
			info FAIL "$label $short: new errors or warnings in ${files[*]}"
			echo "$new" | sed 's/^/    /'
			echo "    log: $LOGS/$name-build-$short.log"
			fail=1
			break
		fi
		# an object that did not come out was not checked: a failure,
		# unless the base has the file and made no object of it either
		# (a file taken from the head made its object there)
		missing=$(comm -23 <(printf '%s\n' "${req[@]}" | sort) \
			<(cat "$LOGS/$name-$short.built" "$LOGS/$name-$short.athead" | sort -u))
		shared=$(comm -12 <(printf '%s\n' $missing) <(printf '%s\n' "${xbase[@]}" | sort) |
			comm -23 - "$base_built" | grep -v '^$' || true)
		for f in $shared; do
			info SKIP "$label $short: $f not built by the $label configuration (no object at the base either)"
			echo "$f" >>"$o/.cpu-alloc-notbuilt"
		done
		missing=$(comm -23 <(printf '%s\n' $missing) <(printf '%s\n' $shared | sort) | grep -v '^$' || true)
		if [ -n "$missing" ]; then
			info FAIL "$label $short: no object for $(echo "$missing" | tr '\n' ' ')(an error the ignore list hides, or one the base lacks)"
			echo "    log: $LOGS/$name-build-$short.log"
			fail=1
			break
		fi
		nsame=$(grep -c . "$LOGS/$name-$short.athead" || true)
		if [ "$nsame" = 0 ]; then
			info OK "$label $short: ${#files[@]} files compiled, nothing new"
		else
			info OK "$label $short: $((${#files[@]} - nsame)) files compiled, $nsame as at the head (they read the same files), nothing new"
		fi
	done
	git -C "$WORK/checkout-$name" checkout -q -f --detach "$base"
}

# xconfig_add ID CONFIGFILE LABEL WHAT FILES...: the files to compile
# at commit ID under CONFIGFILE (the .c file whose object builds each
# of FILES) in xfiles[ID], those the base has added to xbase; a file it
# does not build gets a SKIP line, "LABEL ID: ... not built by WHAT".
xconfig_add() {
	local id=$1 cfg=$2 label=$3 what=$4 f src files=() skipped=()
	shift 4
	for f in "$@"; do
		# (not in a command substitution: mk_of's memory is this shell's)
		if enabled_at "$cfg" "$id" "$f" >"$MKDIR/src"; then
			read -r src <"$MKDIR/src"
			files+=("$src")
			[ -n "$(kgit ls-tree "$base" -- "$src")" ] && xbase+=("$src")
		else
			skipped+=("$f")
		fi
	done
	xfiles[$id]=$(printf '%s\n' "${files[@]}" | sort -u | tr '\n' ' ')
	[ ${#skipped[@]} = 0 ] || info SKIP "$label ${id:0:12}: ${skipped[*]} not built by $what"
}

# mark_compiled NAME CONFIGFILE [UNLESS]: add NAME to compiled_by[] of
# each file of the series that CONFIGFILE builds at the head, but for
# those that compiled_by[] already gives to UNLESS, and for those that
# xconfig_run found the configuration of $WORK/build-NAME does not
# build after all (.cpu-alloc-notbuilt; kept with a recorded pass).
mark_compiled() {
	local f notbuilt=$WORK/build-$1/.cpu-alloc-notbuilt
	for f in "${series_files[@]}"; do
		if [ -n "${3:-}" ]; then
			case " ${compiled_by[$f]:-} " in *" $3 "*) continue ;; esac
		fi
		[ -f "$notbuilt" ] && grep -qxF "$f" "$notbuilt" && continue
		enabled_at "$2" "$head" "$f" >/dev/null && compiled_by[$f]+=" $1"
	done
	return 0
}

head=$(kgit rev-parse "$BRANCH")
# where enabled_at puts the Makefile it reads
MKDIR=$(mktemp -d "${TMPDIR:-/tmp}/cpu-alloc-check.XXXXXX")
trap 'rm -rf "$MKDIR"' EXIT
# the .c files of the series (at the head) and the configurations that
# compile each: "boot" (the boot config, when a build left its .config),
# "i386", "wide"
declare -A compiled_by=()
mapfile -t series_files < <(kgit diff --name-only --diff-filter=AM "$base" "$head" -- '*.c')
[ -f "$O/.config" ] && [ -z "$only" ] && mark_compiled boot "$O/.config"

# i386 with NUMA (checkpatch/i386-numa.config after
# qemu/cpu_alloc.config), where CPU_ALLOC is off: every file each
# commit touches, at that commit.  A pass is recorded as the wide
# compile's is (I386=only, make test's job behind bisect-check, then
# make check).
if [ "$I386" != 0 ] && [ "$only" != wide ] && [ $np -gt 0 ]; then
	co=$WORK/checkout-i386 o=$WORK/build-i386
	salt=$(cat "$TOP/qemu/cpu_alloc.config" "$TOP/checkpatch/i386-numa.config" | sha256sum | cut -c1-16)
	key=$({
		echo "$salt $base CHECK_COMMITS=$CHECK_COMMITS"
		kgit rev-list "$base..$BRANCH"
		cat "$TOP/checkpatch/build-warnings.ignore" "$TOP/scripts/check.sh" "$TOP/scripts/lib.sh"
		gcc --version | head -n1
	} | sha256sum | cut -c1-16)
	if [ "$(cat "$o/.cpu-alloc-passed" 2>/dev/null)" = "$key" ]; then
		info OK "i386 ${head:0:12}: passed for this series and this configuration ($o/.cpu-alloc-passed)"
	else
		rm -f "$o/.cpu-alloc-passed"
		worktree "$co" "$base"
		git -C "$co" checkout -q -f --detach "$base"
		if [ "$(cat "$o/.cpu-alloc-configured" 2>/dev/null)" != "$salt" ] || [ ! -f "$o/.cpu-alloc-config" ]; then
			info CONFIG "i386 with NUMA in $o (objects only)"
			mkdir -p "$o"
			(cd "$co" && ARCH=i386 vrun scripts/kconfig/merge_config.sh -n -O "$o" \
				"$TOP/qemu/cpu_alloc.config" "$TOP/checkpatch/i386-numa.config") >"$LOGS/config-i386.log" 2>&1 ||
				die "configuring i386 failed" "log: $LOGS/config-i386.log"
			for want in CONFIG_X86_32=y CONFIG_NUMA=y CONFIG_SMP=y; do
				grep -qx "$want" "$o/.config" ||
					die "the i386 configuration lacks $want" "see: $LOGS/config-i386.log and checkpatch/i386-numa.config"
			done
			cp "$o/.config" "$o/.cpu-alloc-config"
			echo "$salt" >"$o/.cpu-alloc-configured"
		fi
		grep -q '^CONFIG_CPU_ALLOC=y' "$o/.config" && die "CPU_ALLOC is on in the i386 configuration" "it must depend on X86_64"
		declare -A xfiles=()
		xbase=()
		for id in $(kgit rev-list --reverse "$base..$BRANCH"); do
			mapfile -t files < <(touched "$id")
			xconfig_add "$id" "$o/.cpu-alloc-config" i386 "the i386 configuration" "${files[@]}"
		done
		xempty="no built .c file touched"
		before=$fail fail=0
		xconfig_run i386 i386 i386
		[ $fail = 0 ] && echo "$key" >"$o/.cpu-alloc-passed"
		[ "$before" = 0 ] || fail=1
	fi
	mark_compiled i386 "$o/.cpu-alloc-config"
fi
if [ "$only" = i386 ]; then
	[ $fail = 0 ] || die "make check I386=only found new errors or warnings" "logs: $LOGS/i386-*.txt"
	info CHECK "i386: clean"
	exit 0
fi

# allmodconfig_once ARCH CO O SALT LOG [WANT]: ARCH allmodconfig of the
# checkout CO in O, with checkpatch/wide.config as KCONFIG_ALLCONFIG,
# unless O already holds the one of SALT.  WERROR must be off, and the
# line WANT (CONFIG_CPU_ALLOC=y, CONFIG_ARM64=y) in the .config.
allmodconfig_once() {
	local arch=$1 co=$2 o=$3 salt=$4 log=$5 want=${6:-} cross
	[ "$(cat "$o/.cpu-alloc-configured" 2>/dev/null)" != "$salt" ] || [ ! -f "$o/.cpu-alloc-config" ] || return 0
	cross=$(cross_of "$arch")
	info CONFIG "$arch allmodconfig in $o (objects only${cross:+, ${cross}gcc})"
	mkdir -p "$o"
	ARCH=$arch CROSS_COMPILE=$cross KCONFIG_ALLCONFIG=$TOP/checkpatch/wide.config kmake "$co" "$o" allmodconfig \
		>"$log" 2>&1 || die "configuring $arch allmodconfig failed" "log: $log"
	grep -q '^CONFIG_WERROR=y' "$o/.config" &&
		die "WERROR is on in the $arch allmodconfig" "checkpatch/wide.config must turn it off"
	[ -z "$want" ] || grep -qx "$want" "$o/.config" ||
		die "the $arch allmodconfig lacks $want" "see: $log"
	cp "$o/.config" "$o/.cpu-alloc-config"
	echo "$salt" >"$o/.cpu-alloc-configured"
}

# arm64_compile WIDECONFIG SALT: the part of the wide compile for the
# files x86_64 does not build (arch/arm64, the ARM irqchip, timer, PMU
# and CoreSight drivers): arm64 allmodconfig at the head, with
# Debian's cross compiler and checkpatch/wide.config, in
# $WORK/build-arm64, configured only when there is such a file.  Each
# of them at the commit that touches it, all of them at the head,
# judged against the base as the x86_64 compile is.  CPU_ALLOC is
# x86_64's, so this compiles the conversions as every other
# architecture sees them.
arm64_compile() {
	local wcfg=$1 salt=$2 ao=$WORK/build-arm64 aco=$WORK/checkout-arm64 id f any=0 list
	local -A cand=()
	for id in $(kgit rev-list --reverse "$base..$BRANCH"); do
		list=
		while read -r f; do
			enabled_at "$wcfg" "$id" "$f" >/dev/null || list+="$f "
		done < <({ [ "$id" != "$head" ] || printf '%s\n' "${series_files[@]}"; touched "$id"; } | sort -u | grep .)
		cand[$id]=$list
		[ -z "$list" ] || any=1
	done
	if [ $any = 0 ]; then
		info OK "arm64: x86_64 allmodconfig builds every .c file of the series"
		return 0
	fi
	worktree "$aco" "$head"
	git -C "$aco" checkout -q -f --detach "$head"
	allmodconfig_once arm64 "$aco" "$ao" "$salt" "$LOGS/config-arm64.log" CONFIG_ARM64=y
	xfiles=()
	xbase=()
	for id in $(kgit rev-list --reverse "$base..$BRANCH"); do
		read -r -a list <<<"${cand[$id]}"
		if [ ${#list[@]} = 0 ]; then
			xfiles[$id]=
			continue
		fi
		xconfig_add "$id" "$ao/.cpu-alloc-config" arm64 "arm64 allmodconfig" "${list[@]}"
	done
	xconfig_run arm64 arm64 arm64
}

# x86_64 allmodconfig (checkpatch/wide.config as KCONFIG_ALLCONFIG),
# configured at the head: every file the series touches at the head,
# and, at the commit that touches it, a file the boot config does not
# build (the boot config's build of each commit compiles the others).
# Which files the boot config builds is read from the head's boot
# config, configured in $WORK/build-wide-boot (not $O's: make test runs
# this step beside bisect-check, whose builds change $O).  A pass is
# recorded under a key of everything that decides it (the series'
# commits, both configurations, the compiler, the ignore list, these
# scripts): the same check again prints that and compiles nothing.
if [ "$WIDE" != 0 ] && [ $np -gt 0 ]; then
	co=$WORK/checkout-wide o=$WORK/build-wide
	worktree "$co" "$head"
	git -C "$co" checkout -q -f --detach "$head"
	# configured again when the fragment or a Kconfig file of the head changes
	salt=$({ sha256sum <"$TOP/checkpatch/wide.config"; kgit ls-tree -r "$head" | grep -E '/Kconfig[^/]*$|	Kconfig$'; } |
		sha256sum | cut -c1-16)
	want=
	kgit grep -q -E '^config CPU_ALLOC$' "$head" -- '*Kconfig*' && want=CONFIG_CPU_ALLOC=y
	allmodconfig_once x86_64 "$co" "$o" "$salt" "$LOGS/config-wide.log" "$want"
	bo=$WORK/build-wide-boot
	configure_once "$co" "$bo" "$LOGS/config-wide-boot.log"
	config_done "$bo"
	if [ "$ARM64" = 1 ]; then
		command -v "${ARM64_CROSS}gcc" >/dev/null ||
			die "no ${ARM64_CROSS}gcc for the arm64 part of the wide compile" \
			    "run: make deps (it installs gcc-aarch64-linux-gnu), or leave that part out: ARM64=0"
	fi
	key=$({
		echo "$salt $base ARM64=$ARM64 CHECK_COMMITS=$CHECK_COMMITS"
		kgit rev-list "$base..$BRANCH"
		cat "$bo/.config" "$TOP/checkpatch/build-warnings.ignore" "$TOP/scripts/check.sh" "$TOP/scripts/lib.sh"
		gcc --version | head -n1
		[ "$ARM64" = 0 ] || "${ARM64_CROSS}gcc" --version | head -n1
	} | sha256sum | cut -c1-16)
	if [ "$(cat "$o/.cpu-alloc-passed" 2>/dev/null)" = "$key" ]; then
		info OK "wide ${head:0:12}: passed for this series and these configurations ($o/.cpu-alloc-passed)"
	else
		rm -f "$o/.cpu-alloc-passed"
		declare -A xfiles=()
		xbase=()
		for id in $(kgit rev-list --reverse "$base..$BRANCH"); do
			files=()
			[ "$id" = "$head" ] && mapfile -t files < <(printf '%s\n' "${series_files[@]}")
			while read -r f; do
				enabled_at "$bo/.config" "$id" "$f" >/dev/null && continue
				files+=("$f")
			done < <(touched "$id")
			mapfile -t files < <(printf '%s\n' "${files[@]}" | sort -u | grep .)
			xconfig_add "$id" "$o/.cpu-alloc-config" wide allmodconfig "${files[@]}"
		done
		xempty=
		before=$fail fail=0
		xconfig_run wide x86_64 wide
		[ "$ARM64" = 0 ] || [ $fail != 0 ] || arm64_compile "$o/.cpu-alloc-config" "$salt"
		[ $fail = 0 ] && echo "$key" >"$o/.cpu-alloc-passed"
		[ "$before" = 0 ] || fail=1
	fi
	mark_compiled wide "$o/.cpu-alloc-config"
	[ "$ARM64" = 0 ] || [ ! -f "$WORK/build-arm64/.cpu-alloc-config" ] ||
		mark_compiled arm64 "$WORK/build-arm64/.cpu-alloc-config" wide
fi
if [ "$only" = wide ]; then
	[ $fail = 0 ] || die "make check WIDE=only found new errors or warnings" "logs: $LOGS/wide-*.txt"
	info CHECK "wide: clean"
	exit 0
fi

# The files none of the configurations checked compiles.  The debug
# kernel's (qemu/debug.config: KASAN, kmemleak) counts when a build of
# it left its .config (make test builds it).
if [ -f "$O/.config" ] && [ $np -gt 0 ]; then
	configs=boot
	dcfg=$WORK/build-debug/.config
	if [ -f "$dcfg" ]; then
		configs+=", debug"
		mark_compiled debug "$dcfg" boot
	fi
	[ "$I386" = 1 ] && configs+=", i386"
	[ "$WIDE" != 0 ] && configs+=", wide"
	[ "$WIDE" != 0 ] && [ "$ARM64" = 1 ] && configs+=", arm64"
	: >"$LOGS/uncompiled.txt"
	for f in "${series_files[@]}"; do
		echo "$f:${compiled_by[$f]:- none}"
		[ -n "${compiled_by[$f]:-}" ] || echo "$f" >>"$LOGS/uncompiled.txt"
	done >"$LOGS/compiled-by.txt"
	if [ -s "$LOGS/uncompiled.txt" ]; then
		info SKIP "no configuration ($configs) compiles: $(tr '\n' ' ' <"$LOGS/uncompiled.txt")"
	else
		info OK "each of the ${#series_files[@]} .c files of the series is compiled ($configs; $LOGS/compiled-by.txt)"
	fi
fi

# --- CPU_PTR() and per_cpu_ptr() load nothing ---------------------------
# cpu_alloc_test_cpu_ptr() is CPU_PTR() (0003 on); cpu_alloc_test_per_cpu_ptr()
# is per_cpu_ptr(), checked where the head has it (0044 on: per_cpu_offset()
# is the formula).
if [ $np -gt 0 ] && kgit cat-file -e "$head:mm/cpu_alloc_test.c" 2>/dev/null; then
	if [ "$(cat "$O/.cpu-alloc-built" 2>/dev/null)" != "$head" ]; then
		REV=$head "$TOP/scripts/build.sh" >"$LOGS/check-build-head.log" 2>&1 || {
			tail -n 20 "$LOGS/check-build-head.log" >&2
			die "cannot build the head for the CPU_PTR() probe" "log: $LOGS/check-build-head.log"
		}
	fi
	obj=$O/mm/cpu_alloc_test.o
	[ -f "$obj" ] || die "no $obj" "the probe needs CONFIG_CPU_ALLOC_KUNIT_TEST=y (qemu/cpu_alloc.config)"
	objdump -d --no-show-raw-insn "$obj" >"$LOGS/cpu_alloc_test.dis"
	for probe in cpu_alloc_test_cpu_ptr cpu_alloc_test_per_cpu_ptr; do
		what="CPU_PTR()"
		[ $probe = cpu_alloc_test_cpu_ptr ] || what="per_cpu_ptr()"
		out=$LOGS/${probe#cpu_alloc_test_}-probe.txt
		awk -v f="<$probe>:" '$2 == f { on = 1; next } on && /^$/ { on = 0 } on' \
			"$LOGS/cpu_alloc_test.dis" >"$out"
		if [ ! -s "$out" ]; then
			[ $probe = cpu_alloc_test_cpu_ptr ] || continue
			die "no $probe in $obj" "it is in mm/cpu_alloc_test.c (0003)"
		fi
		# mnemonic and operands of each instruction; a memory operand has
		# parentheses or is a bare address (no $), jumps and calls aside
		loads=$(awk -F'\t' '{ print $2 }' "$out" |
			awk '$1 !~ /^(lea|nop|endbr|int3|ret|j|call)/ && ($2 ~ /\(/ || $2 ~ /(^|,)(%[a-z]s:)?-?0x[0-9a-f]+(,|$)/)' || true)
		if [ -n "$loads" ]; then
			info FAIL "$what probe ${head:0:12}: memory accesses in $probe"
			echo "$loads" | sed 's/^/    /'
			fail=1
		else
			info OK "$what probe ${head:0:12}: $(wc -l <"$out") instructions, no memory access"
		fi
	done
fi

# --- CPU_FREE() of a void pointer does not build ------------------------
# Compiled with the head's own command line for mm/cpu_alloc_test.o (its
# .cmd file), so with the kernel's flags and the head's headers: the
# typed call must build, the void one must fail on CPU_FREE().
cmdfile=$O/mm/.cpu_alloc_test.o.cmd
if [ $np -gt 0 ] && [ -f "$cmdfile" ] && kgit cat-file -e "$head:include/linux/cpu_alloc.h" 2>/dev/null; then
	pdir=$LOGS/cpu_free-probe
	rm -rf "$pdir" && mkdir -p "$pdir"
	printf '%s\n' '#include <linux/cpu_alloc.h>' \
		'void cpu_free_probe(u64 __percpu *p) { CPU_FREE(p); }' >"$pdir/typed.c"
	printf '%s\n' '#include <linux/cpu_alloc.h>' \
		'void cpu_free_probe(void __percpu *p) { CPU_FREE(p); }' >"$pdir/void.c"
	cc=$(compile_cmd "$cmdfile")
	probe_cc() { # NAME: compile $pdir/NAME.c as mm/cpu_alloc_test.c is
		# shellcheck disable=SC2001
		(cd "$O" && eval "$(printf '%s' "$cc" | sed -E "s# -o [^ ]+ [^ ]+\.c\b# -o $pdir/$1.o $pdir/$1.c#")") \
			>"$pdir/$1.log" 2>&1
	}
	if ! probe_cc typed; then
		info FAIL "CPU_FREE() probe ${head:0:12}: a typed pointer does not build"
		sed 's/^/    /' "$pdir/typed.log" | head -n 20
		fail=1
	elif probe_cc void; then
		info FAIL "CPU_FREE() probe ${head:0:12}: CPU_FREE() of a void __percpu pointer builds"
		fail=1
	elif ! grep -q 'CPU_FREE' "$pdir/void.log"; then
		info FAIL "CPU_FREE() probe ${head:0:12}: the void call fails, but not on CPU_FREE()"
		sed 's/^/    /' "$pdir/void.log" | head -n 20
		fail=1
	else
		info OK "CPU_FREE() probe ${head:0:12}: a void __percpu pointer does not build, a typed one does"
	fi
fi

[ $fail = 0 ] || die "make check found new warnings" "logs: $LOGS/{checkpatch,sparse,i386,wide}-*.txt"
info CHECK "clean"
