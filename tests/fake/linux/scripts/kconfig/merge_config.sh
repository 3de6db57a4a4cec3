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
# (one awk over the fragments: the real script's speed does not matter,
# the selftest's does)
awk -v i386="$([ "${ARCH:-}" = i386 ] && echo 1)" -v out="$out/.config" '
	FILENAME == "Kconfig" { if ($1 == "config" && NF == 2) known["CONFIG_" $2] = 1; next }
	FILENAME == "Kconfig.drop" { drop[$0] = 1; next }
	/^CONFIG_/ {
		sym = $0; sub(/=.*/, "", sym)
		if (i386 && (sym == "CONFIG_64BIT" || sym ~ /^CONFIG_CPU_ALLOC/)) next
		if ((sym in known) && !(sym in drop)) print >>out
		else print "Value requested for " sym " not in final .config"
	}' Kconfig $([ -f Kconfig.drop ] && echo Kconfig.drop) "$@"
