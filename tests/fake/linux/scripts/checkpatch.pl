#!/bin/sh
# Fake checkpatch.pl: a patch adding a line with "checkpatch-error" gets
# an ERROR, one with "checkpatch-warn" a WARNING of type FAKE_WARN; with
# "checkpatch-traceback", a helper script fails as spdxcheck.py does
# without its Python modules, and checkpatch still passes.  Each run
# appends the patch's name to $FAKE_CHECKPATCH_LOG, when set.
for last; do :; done
[ -z "${FAKE_CHECKPATCH_LOG:-}" ] || echo "$last" >>"$FAKE_CHECKPATCH_LOG"
grep -n '^+.*checkpatch-error' "$last" | sed "s|^\([0-9]*\):.*|$last:\1: ERROR:FAKE_ERROR: fake error|"
grep -n '^+.*checkpatch-warn' "$last" | sed "s|^\([0-9]*\):.*|$last:\1: WARNING:FAKE_WARN: fake warning|"
if grep -q '^+.*checkpatch-traceback' "$last"; then
	printf '%s\n' 'Traceback (most recent call last):' "ModuleNotFoundError: No module named 'ply'" >&2
	exit 0
fi
grep -q '^+.*checkpatch-' "$last" && exit 1
exit 0
