#!/bin/sh
# Fake merge_config.sh: -n -O DIR FRAGMENTS...; symbols that Kconfig does
# not define, or that Kconfig.drop lists, are reported the way the real
# one reports them.  FAKE_TRACE names a file that gets a line "configure".
while [ $# -gt 0 ]; do
	case "$1" in
	-n|-m) shift ;;
	-O) out=$2; shift 2 ;;
	*) break ;;
	esac
done
mkdir -p "$out"
[ -z "${FAKE_TRACE:-}" ] || echo "configure" >>"$FAKE_TRACE"
: > "$out/.config"
# ARCH=i386: a 32-bit kernel, where the 64-bit-only symbols drop out
[ "${ARCH:-}" = i386 ] && echo "CONFIG_X86_32=y" >> "$out/.config"
for f in "$@"; do
	grep '^CONFIG_' "$f" | while IFS='=' read -r sym val; do
		if [ "${ARCH:-}" = i386 ]; then
			case "$sym" in CONFIG_64BIT|CONFIG_CPU_ALLOC*) continue ;; esac
		fi
		# Kconfig.drop lists symbols whose dependencies are "not met"
		if grep -q "^config ${sym#CONFIG_}\$" Kconfig && ! grep -qx "$sym" Kconfig.drop 2>/dev/null; then
			echo "$sym=$val" >> "$out/.config"
		else
			echo "Value requested for $sym not in final .config"
		fi
	done
done
