#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make convert-report: the alloc_percpu-family call sites still in the
# tree at a revision, i.e. what is left to move to cpu_alloc.
#
#   scripts/convert-report.sh [REV]      REV defaults to $REV, then $BRANCH
#
# Counts every call of alloc_percpu(), alloc_percpu_gfp(),
# __alloc_percpu() and __alloc_percpu_gfp() in the kernel sources of
# REV (git grep, no checkout needed), grouped by directory:
#
#   mm/ (2)
#     mm/page_alloc.c:7279: alloc_percpu(struct per_cpu_nodestat);
#   ...
#   remaining alloc_percpu-family call sites: N in M files
#   free_percpu() calls left: F
#
# Not counted: the names in string literals (an error message that
# says "alloc_percpu(fds) failed"), the definitions (include/linux/percpu.h, mm/percpu*.c),
# the allocator's own fallback and tests (include/linux/cpu_alloc.h,
# mm/cpu_alloc*.c: they call alloc_percpu() on purpose), comment lines, Documentation/, and tools/ (user-space copies of the
# API, e.g. the rcutorture CBMC model).  A call written over several
# lines counts once, at the line of its name.  Settings: SRC, BRANCH as
# in lib.sh.
. "$(dirname "$0")/lib.sh"

[ $# -le 1 ] || die "usage: $0 [REV]"
[ -d "$SRC/.git" ] || die "no kernel tree in $SRC" "run: make tree"
REV=${1:-${REV:-$BRANCH}}
id=$(resolve "$REV")

# A call: the name, not preceded by an identifier character, then "(".
RE='(^|[^A-Za-z0-9_])(__)?alloc_percpu(_gfp)?[[:space:]]*\('

# What is not counted (see above).
EXCLUDE=(':(exclude)include/linux/percpu.h' ':(exclude)mm/percpu*.c'
	 ':(exclude)include/linux/cpu_alloc.h' ':(exclude)mm/cpu_alloc*.c'
	 ':(exclude)Documentation' ':(exclude)tools')

# One pass over the tree for both counts (each pass reads every blob
# of the commit: over a minute on a slow machine): the lines that name
# either function, "file:line:text".
FREE_RE='(^|[^A-Za-z0-9_])free_percpu[[:space:]]*\('
lines=$(mktemp)
trap 'rm -f "$lines"' EXIT
kgit grep -n -I -E -e "$RE" -e "$FREE_RE" "$id" -- . "${EXCLUDE[@]}" | sed "s|^$id:||" >"$lines" || true

{ grep -E "$RE" "$lines" || true; } |
	awk -F: '
	{
		file = $1; line = $2
		text = substr($0, length(file) + length(line) + 3)
		sub(/^[ \t]+/, "", text)
		# comment lines: " * ...", "/* ...", "// ..."
		if (text ~ /^(\*|\/\*|\/\/)/)
			next
		# a name inside a string literal is no call:
		# dev_err(dev, "alloc_percpu(fds) failed\n")
		code = text
		gsub(/"([^"\\]|\\.)*"/, "\"\"", code)
		if (code !~ /(^|[^A-Za-z0-9_])(__)?alloc_percpu(_gfp)?[ \t]*\(/)
			next
		dir = file; sub(/\/[^\/]*$/, "", dir)
		if (dir == file) dir = "."
		if (!(dir in count)) order[++ndirs] = dir
		count[dir]++
		sites[dir] = sites[dir] sprintf("  %s:%s: %s\n", file, line, text)
		if (!(file in files)) { files[file] = 1; nfiles++ }
		total++
	}
	END {
		# directories in name order
		for (i = 1; i <= ndirs; i++)
			for (j = i + 1; j <= ndirs; j++)
				if (order[j] < order[i]) { t = order[i]; order[i] = order[j]; order[j] = t }
		for (i = 1; i <= ndirs; i++) {
			d = order[i]
			printf "%s/ (%d)\n%s", d, count[d], sites[d]
		}
		printf "remaining alloc_percpu-family call sites: %d in %d files\n", total, nfiles
	}'
# free_percpu() calls (not the definition, not comment lines)
frees=$(cut -d: -f3- "$lines" | grep -E "$FREE_RE" | grep -c -v -E '^[[:space:]]*(\*|/\*|//)' || true)
echo "free_percpu() calls left: $frees"
