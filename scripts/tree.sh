#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# make tree: import the pinned tarball as the base commit (once) and
# apply commits/*.patch onto the branch $BRANCH with git am.
#
# The base commit is the tarball's bytes exactly, with a fixed identity
# and date, so its id is the same on every machine and is checked
# against kernel-base.lock.  The series is applied with a fixed
# committer too, so every commit of the branch has a stable id as well
# (bisect-check caches its results by commit id).
. "$(dirname "$0")/lib.sh"

PKG=$(lock_get PACKAGE)
VER=$(lock_get VERSION)
TARBALL=$(lock_get TARBALL)
SHA=$(lock_get SHA256)
BASE=$(lock_get BASE_COMMIT)

export GIT_COMMITTER_NAME="$BASE_IDENT_NAME" GIT_COMMITTER_EMAIL="$BASE_IDENT_EMAIL"

check_tarball() {
	local have
	have=$(dpkg-query -W -f '${Version}' "$PKG" 2>/dev/null || true)
	[ -n "$have" ] || die "package $PKG is not installed" "run: make deps"
	[ "$have" = "$VER" ] ||
		die "$PKG $have is installed, but kernel-base.lock pins $VER" \
		    "run: make deps        (installs $PKG=$VER)" \
		    "or:  make relock      (pins the version the archive offers now)"
	[ -f "$TARBALL" ] || die "$TARBALL is missing although $PKG $have is installed" \
		"run: apt-get install --reinstall $PKG=$VER"
	local sum
	sum=$(sha256sum "$TARBALL" | cut -d' ' -f1)
	[ "$sum" = "$SHA" ] ||
		die "checksum mismatch for $TARBALL" "expected $SHA" "found    $sum" \
		    "the package is not the one the lock pins; reinstall it or run: make relock"
}

# import_tarball TARBALL DIR SUBJECT BODY: unpack TARBALL (one top-level
# directory) into DIR and commit its bytes exactly, with the fixed
# identity and date; prints the commit id.  The same tarball and message
# give the same id on every machine.  make am-check imports plain 6.1.y
# tarballs with it too (tree.sh import-tarball).
import_tarball() {
	local tarball=$1 dir=$2 subject=$3 body=$4 top
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	tar -C "$dir.tmp" -xf "$tarball"
	top=$(ls "$dir.tmp")
	[ "$(echo "$top" | wc -l)" = 1 ] || die "$tarball does not hold one top-level directory"
	mv "$dir.tmp/$top" "$dir"
	rmdir "$dir.tmp"
	git -C "$dir" init -q -b base-import
	git -C "$dir" config core.autocrlf false
	git -C "$dir" config gc.auto 0
	# Debian's top-level .gitignore ignores every top-level path: -f.
	git -C "$dir" add -f -A .
	GIT_AUTHOR_NAME="$BASE_IDENT_NAME" GIT_AUTHOR_EMAIL="$BASE_IDENT_EMAIL" \
	GIT_AUTHOR_DATE="$BASE_IDENT_DATE" GIT_COMMITTER_DATE="$BASE_IDENT_DATE" \
		git -C "$dir" commit -q --no-verify -m "$subject" -m "$body"
	git -C "$dir" rev-parse HEAD
}

# import_tarball_fast TARBALL REPO SUBJECT BODY: the same commit as
# import_tarball (same tree, identity, date and message, so the same id),
# written by git fast-import straight from the tarball into the git
# repository REPO (made if missing) on no branch: nothing is unpacked on
# disk, and blobs REPO holds already are not written again, so a second
# 6.1.y costs seconds.  Prints the id.  make am-check uses it (and checks
# it against kernel-base.lock on the pinned tarball).
import_tarball_fast() {
	local tarball=$1 repo=$2 subject=$3 body=$4 py when
	py=python3
	[ -x /usr/bin/python3 ] && py=/usr/bin/python3
	[ -d "$repo/.git" ] || {
		git init -q -b base-import "$repo"
		git -C "$repo" config core.autocrlf false
		git -C "$repo" config gc.auto 0
	}
	when=$(date -u -d "$BASE_IDENT_DATE" +%s) || die "cannot read the date $BASE_IDENT_DATE"
	# The tarball's one top-level directory is the tree's root; a file
	# is 100755 if its owner may run it (as git add records it), a
	# symlink 120000, a hard link the blob of its target.
	"$py" - "$tarball" "$BASE_IDENT_NAME <$BASE_IDENT_EMAIL> $when +0000" "$subject

$body
" <<'EOF' | git -C "$repo" fast-import --quiet || { die "importing $tarball failed"; }
import sys, tarfile
tarball, ident, msg = sys.argv[1], sys.argv[2], sys.argv[3].encode()
out = sys.stdout.buffer
files, mark, top, seen = [], 0, None, {}
def rel(name):
    global top
    parts = name.split("/")
    if top is None:
        top = parts[0]
    if parts[0] != top:
        sys.exit("%s does not hold one top-level directory" % tarball)
    return "/".join(p for p in parts[1:] if p not in ("", "."))
def blob(data):
    global mark
    mark += 1
    out.write(b"blob\nmark :%d\ndata %d\n" % (mark, len(data)))
    out.write(data)
    out.write(b"\n")
    return mark
with tarfile.open(tarball, "r|*") as t:
    for m in t:
        path = rel(m.name)
        if not path or m.isdir():
            continue
        if m.issym():
            files.append((b"120000", blob(m.linkname.encode()), path))
        elif m.islnk():
            target = rel(m.linkname)
            mode, mk = seen[target]
            files.append((mode, mk, path))
        elif m.isreg():
            mode = b"100755" if m.mode & 0o100 else b"100644"
            mk = blob(t.extractfile(m).read())
            seen[path] = (mode, mk)
            files.append((mode, mk, path))
out.write(b"reset refs/cpu-alloc/import\n")
out.write(b"commit refs/cpu-alloc/import\nmark :%d\n" % (mark + 1))
out.write(b"author %s\ncommitter %s\n" % (ident.encode(), ident.encode()))
out.write(b"data %d\n%s\n" % (len(msg), msg))
for mode, mk, path in files:
    p = path.encode("utf-8", "surrogateescape")
    if p.startswith(b'"') or b"\n" in p:
        p = b'"' + p.replace(b"\\", b"\\\\").replace(b'"', b'\\"').replace(b"\n", b"\\n") + b'"'
    out.write(b"M %s :%d %s\n" % (mode, mk, p))
out.write(b"\n")
EOF
	git -C "$repo" rev-parse refs/cpu-alloc/import
	git -C "$repo" update-ref -d refs/cpu-alloc/import
}

# import DIR: the pinned tarball into DIR; prints the id.
import() {
	import_tarball "$TARBALL" "$1" "Import $PKG $VER" \
		"The unmodified contents of $(basename "$TARBALL") from the Debian package $PKG $VER."
}

cmd=${1:-tree}
case "$cmd" in
import-only)
	# Used by make relock: import into $2 and print the base commit id.
	check_tarball
	import "$2"
	exit 0
	;;
import-tarball)
	# Used by make am-check: import-tarball TARBALL DIR SUBJECT BODY.
	[ $# = 5 ] || die "usage: tree.sh import-tarball TARBALL DIR SUBJECT BODY"
	[ -f "$2" ] || die "no tarball $2"
	[ ! -e "$3" ] || die "$3 exists already"
	import_tarball "$2" "$3" "$4" "$5"
	exit 0
	;;
import-fast)
	# Used by make am-check: import-fast TARBALL REPO SUBJECT BODY.
	[ $# = 5 ] || die "usage: tree.sh import-fast TARBALL REPO SUBJECT BODY"
	[ -f "$2" ] || die "no tarball $2"
	import_tarball_fast "$2" "$3" "$4" "$5"
	exit 0
	;;
esac

check_tarball

if [ ! -d "$SRC/.git" ]; then
	[ -e "$SRC" ] && die "$SRC exists but is not a git work tree" "move it away or choose another WORK="
	[ -n "$BASE" ] || die "kernel-base.lock has no BASE_COMMIT" "run: make relock"
	info IMPORT "$TARBALL -> $SRC"
	mkdir -p "$(dirname "$SRC")"
	id=$(import "$SRC")
	if [ "$id" != "$BASE" ]; then
		mv "$SRC" "$SRC.rejected"
		die "the imported base is $id, but kernel-base.lock says $BASE" \
		    "the rejected import is kept in $SRC.rejected" \
		    "if the lock is stale, run: make relock"
	fi
	kgit tag -f base "$BASE" >/dev/null
else
	kgit cat-file -e "$BASE^{commit}" 2>/dev/null ||
		die "$SRC does not contain the base commit $BASE of kernel-base.lock" \
		    "it was imported from another base; move it away (or WORK=...) and run: make tree"
	am_in_progress && die "a git am is stopped in $SRC" \
		"finish it: git -C $SRC am --continue (or --abort), then make export"
	tree_dirty && die "the work tree $SRC has uncommitted changes" \
		"commit them and run: make export (or discard: git -C $SRC reset --hard; git -C $SRC clean -fdx)"
	# The branch may be reset if it is what the last make tree made
	# (commits/ moved on since: a git pull), or what commits/ holds now.
	applied=$(cat "$(kgit rev-parse --absolute-git-dir)/cpu-alloc-applied" 2>/dev/null || true)
	if kgit rev-parse -q --verify "refs/heads/$BRANCH" >/dev/null && [ "${FORCE:-0}" != 1 ] &&
	   [ "$(kgit rev-parse "refs/heads/$BRANCH")" != "$applied" ]; then
		if ! "$TOP/scripts/export.sh" --compare >/dev/null 2>&1; then
			die "branch $BRANCH in $SRC has commits that differ from commits/" \
			    "save them with: make export   (then commit commits/ here)" \
			    "or throw them away with: make tree FORCE=1"
		fi
	fi
fi

kgit checkout -q -f -B "$BRANCH" "$BASE"
mkdir -p "$LOGS"
n=0
for p in "$COMMITS"/*.patch; do
	[ -e "$p" ] || break
	if ! kgit am -q --committer-date-is-author-date "$p" >"$LOGS/am.log" 2>&1; then
		cat "$LOGS/am.log" >&2 || true
		die "commits/${p##*/} does not apply onto $(kgit log -1 --format='%h %s')" \
		    "git am is stopped in $SRC with the patch half applied (see git -C $SRC am --show-current-patch)" \
		    "fix it there and run: git -C $SRC am --continue; then make export" \
		    "or give up with: git -C $SRC am --abort"
	fi
	n=$((n + 1))
done
kgit rev-parse HEAD >"$(kgit rev-parse --absolute-git-dir)/cpu-alloc-applied"
info TREE "$SRC: $BRANCH = base + $n commits ($(kgit rev-parse --short HEAD))"
