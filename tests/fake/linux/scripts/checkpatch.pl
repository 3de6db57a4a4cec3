#!/bin/sh
# Fake checkpatch.pl: a patch adding a line with "checkpatch-error" gets
# an ERROR, one with "checkpatch-warn" a WARNING of type FAKE_WARN.
for last; do :; done
grep -n '^+.*checkpatch-error' "$last" | sed "s|^\([0-9]*\):.*|$last:\1: ERROR:FAKE_ERROR: fake error|"
grep -n '^+.*checkpatch-warn' "$last" | sed "s|^\([0-9]*\):.*|$last:\1: WARNING:FAKE_WARN: fake warning|"
grep -q '^+.*checkpatch-' "$last" && exit 1
exit 0
