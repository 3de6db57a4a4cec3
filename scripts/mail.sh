#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make mail: the series numbered [PATCH n/m] with the cover letter, in
# $WORK/mail, ready for git send-email (make send uses b4 instead).
#
# The cover letter is kept in the repository (commits/cover-letter: the
# first line is the subject, then a blank line, then the body).  A line
# "@BENCH@" in it becomes the table of the last make bench
# ($WORK/bench/bench.md), or a note that none was run.  git adds the
# shortlog, the diffstat and base-commit: after the body.
. "$(dirname "$0")/lib.sh"

[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
"$TOP/scripts/export.sh" --compare ||
	die "branch $BRANCH differs from commits/; the mail would not be what the repository holds" \
	    "run: make export (and commit), or make tree to reset the branch"
base=$(lock_get BASE_COMMIT)
cover=$COMMITS/cover-letter
[ -f "$cover" ] || die "no cover letter $cover"
n=$(kgit rev-list --count "$base..$BRANCH")
[ "$n" -gt 0 ] || die "the series is empty: nothing to mail"
out=${MAIL_DIR:-$WORK/mail}
rm -rf "$out"
mkdir -p "$out"

# cover_text: the cover letter with its placeholders filled in.
cover_text() {
	local bench=$WORK/bench/bench.md
	while IFS= read -r line; do
		case "$line" in
		@BENCH@)
			if [ -f "$bench" ]; then cat "$bench"
			else echo "(make bench has not been run in this work directory.)"; fi ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <"$cover"
}

git -C "$SRC" -c core.abbrev=12 format-patch -q --numbered --cover-letter --thread=shallow \
	--base="$base" --zero-commit --no-signature -o "$out" "$base..$BRANCH" >/dev/null
# Fill in the cover letter: subject from its first line, body from the rest.
c=$(ls "$out"/0000-cover-letter.patch)
subject=$(head -n1 "$cover")
cover_text | tail -n +3 >"$out/.body"
awk -v subj="$subject" -v bodyf="$out/.body" '
	/^Subject: \[PATCH 0\/[0-9]+\] \*\*\* SUBJECT HERE \*\*\*$/ { sub(/\*\*\* SUBJECT HERE \*\*\*/, subj) }
	/^\*\*\* BLURB HERE \*\*\*$/ { while ((getline l < bodyf) > 0) print l; next }
	{ print }
' "$c" >"$c.new"
mv "$c.new" "$c"
rm -f "$out/.body"
info MAIL "$n patches and a cover letter in $out"
