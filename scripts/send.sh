#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make send [TO=list@...]: mail the series with b4.
#
# In a worktree of its own ($WORK/b4), the branch $BRANCH is copied to
# b4/$BRANCH and enrolled with `b4 prep -e <base>`; its cover letter is
# commits/cover-letter (filled in as make mail does), and recipients
# come from the tree's scripts/get_maintainer.pl (`b4 prep
# --auto-to-cc`), plus TO=.  Then:
#   - with a mail configuration (git config sendemail.smtpServer, or a
#     b4 web endpoint) and SEND=1: `b4 send` for real;
#   - otherwise: `b4 send -o $WORK/outgoing`, which writes the mails as
#     files and sends nothing; the command says so.
. "$(dirname "$0")/lib.sh"

command -v b4 >/dev/null || die "b4 is not installed" "run: make deps"
[ -d "$SRC/.git" ] || die "no kernel work tree at $SRC" "run: make tree"
"$TOP/scripts/export.sh" --compare ||
	die "branch $BRANCH differs from commits/" "run: make export (and commit it) first"
base=$(lock_get BASE_COMMIT)
[ "$(kgit rev-list --count "$base..$BRANCH")" -gt 0 ] || die "the series is empty: nothing to send"
git config user.email >/dev/null || die "git has no user.email: b4 needs an identity to send from" \
	"run: git config --global user.name 'Your Name'; git config --global user.email you@example.org"

MAIL_DIR=$WORK/mail "$TOP/scripts/mail.sh" >/dev/null
cover=$(ls "$WORK"/mail/0000-cover-letter.patch)

# A worktree of its own: the build checkout may be busy (bisect-check).
B4WT=${B4WT:-$WORK/b4}
worktree "$B4WT" "$BRANCH"
cd "$B4WT"
b4br=b4/$BRANCH
git checkout -q -f -B "$b4br" "$BRANCH"
# b4 keeps its state in the branch's cover commit and in git config.
git config --unset-all "branch.$b4br.b4-tracking" 2>/dev/null || true
b4 prep -e "$base" >"$LOGS/b4-prep.log" 2>&1 ||
	{ cat "$LOGS/b4-prep.log" >&2; die "b4 prep --enroll failed" "log: $LOGS/b4-prep.log"; }

# The cover letter: subject and body of the one make mail wrote.
body=$LOGS/b4-cover.txt
{
	sed -n 's/^Subject: \[PATCH 0\/[0-9]*\] //p' "$cover"
	echo
	awk 'body && /^[^ ].* \([0-9]+\):$/ { exit } body { print } /^$/ && !body { body = 1 }' "$cover"
} >"$body"
EDITOR="cp $body" GIT_EDITOR="cp $body" b4 prep --edit-cover >>"$LOGS/b4-prep.log" 2>&1 ||
	die "b4 prep --edit-cover failed" "log: $LOGS/b4-prep.log"
b4 prep --auto-to-cc >>"$LOGS/b4-prep.log" 2>&1 ||
	die "b4 prep --auto-to-cc (scripts/get_maintainer.pl) failed" "log: $LOGS/b4-prep.log"

to=()
[ -n "${TO:-}" ] && to=(--to "$TO")
configured=0
{ git config sendemail.smtpServer || git config b4.send-endpoint-web; } >/dev/null 2>&1 && configured=1
if [ "$configured" = 1 ] && [ "${SEND:-0}" = 1 ]; then
	info SEND "b4 send ${TO:+--to $TO}"
	b4 send "${to[@]}"
else
	out=$WORK/outgoing
	rm -rf "$out"
	# Writing files needs no endpoint nor key; tell b4 "SMTP" so that it
	# does not insist on the web endpoint's signature.
	sign=()
	git config patatt.signingkey >/dev/null 2>&1 || git config user.signingKey >/dev/null 2>&1 || sign=(--no-sign)
	GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=sendemail.smtpServer GIT_CONFIG_VALUE_0=/usr/sbin/sendmail \
	b4 send "${sign[@]}" "${to[@]}" -o "$out" >"$LOGS/b4-send.log" 2>&1 ||
		{ cat "$LOGS/b4-send.log" >&2; die "b4 send -o failed" "log: $LOGS/b4-send.log"; }
	n=$(ls "$out" | wc -l)
	if [ "$configured" = 1 ]; then
		info SEND "SEND=1 not given: $n mails written to $out, nothing sent"
	else
		info SEND "no mail configuration (git config sendemail.smtpServer): $n mails written to $out, nothing sent"
	fi
	grep -h '^To:\|^Cc:' "$out"/* | sort -u | head -n 5 | sed 's/^/    /'
fi
