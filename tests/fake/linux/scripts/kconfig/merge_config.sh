#!/bin/sh
# Fake merge_config.sh: -n -O DIR FRAGMENTS...; symbols that Kconfig does
# not define are reported the way the real one reports them.
while [ $# -gt 0 ]; do
	case "$1" in
	-n|-m) shift ;;
	-O) out=$2; shift 2 ;;
	*) break ;;
	esac
done
mkdir -p "$out"
: > "$out/.config"
for f in "$@"; do
	grep '^CONFIG_' "$f" | while IFS='=' read -r sym val; do
		if grep -q "^config ${sym#CONFIG_}\$" Kconfig; then
			echo "$sym=$val" >> "$out/.config"
		else
			echo "Value requested for $sym not in final .config"
		fi
	done
done
