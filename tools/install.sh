#!/bin/sh
# Installs bootab under DESTDIR/PREFIX, or removes exactly what it installs.
#
# usage: install.sh install|uninstall|list BUILD PREFIX [DESTDIR]
#
#   PREFIX/bin/bootab                           the binary (BUILD/bootab)
#   PREFIX/share/man/man1/bootab.1              BUILD/man/bootab.1
#   PREFIX/share/man/man5/bootab-*.5            man/*.5
#   PREFIX/share/bash-completion/completions/bootab
#   PREFIX/share/doc/bootab/                    README.md, docs/, examples/
#   PREFIX/share/bootab/lab/                    the lab builder: an installed
#                                               binary finds it as
#                                               ../share/bootab/lab/build.sh
#
# 'list' prints the installed paths, one a line. Run from the source tree.
set -eu

if [ $# -lt 3 ] || [ $# -gt 4 ]; then
	echo "usage: install.sh install|uninstall|list BUILD PREFIX [DESTDIR]" >&2
	exit 2
fi
action=$1
build=$2
prefix=$3
root=${4-}$prefix

case $prefix in
/*) ;;
*) echo "install.sh: PREFIX must be an absolute path, not '$prefix'" >&2; exit 2 ;;
esac

# "SOURCE DESTINATION MODE" lines, DESTINATION relative to PREFIX.
manifest() {
	echo "$build/bootab bin/bootab 755"
	echo "$build/man/bootab.1 share/man/man1/bootab.1 644"
	for f in man/*.5; do
		echo "$f share/man/man5/${f#man/} 644"
	done
	echo "completion/bootab.bash share/bash-completion/completions/bootab 644"
	find README.md docs examples -type f | LC_ALL=C sort | while read -r f; do
		echo "$f share/doc/bootab/$f 644"
	done
	if [ -d lab ]; then
		find lab -type f | LC_ALL=C sort | while read -r f; do
			if [ -x "$f" ]; then mode=755; else mode=644; fi
			echo "$f share/bootab/$f $mode"
		done
	fi
}

# Directories that belong to bootab alone: removed when uninstall empties them.
own_dirs() {
	manifest | while read -r _ dest _; do
		case $dest in
		share/doc/bootab/* | share/bootab/*) ;;
		*) continue ;;
		esac
		d=${dest%/*}
		while :; do
			echo "$d"
			case $d in
			share/doc/bootab | share/bootab) break ;;
			esac
			d=${d%/*}
		done
	done | LC_ALL=C sort -ru
}

case $action in
list)
	manifest | while read -r _ dest _; do
		echo "$prefix/$dest"
	done
	;;
install)
	for f in "$build/bootab" "$build/man/bootab.1"; do
		[ -f "$f" ] || { echo "install.sh: '$f' is missing: run 'make' first" >&2; exit 2; }
	done
	manifest | while read -r src dest mode; do
		case $src in
		*[[:space:]]*) echo "install.sh: '$src': a name with blanks" >&2; exit 2 ;;
		esac
		mkdir -p "$root/${dest%/*}"
		# A new name, then rename: a running bootab is never overwritten in place.
		cp "$src" "$root/$dest.new"
		chmod "$mode" "$root/$dest.new"
		mv -f "$root/$dest.new" "$root/$dest"
	done
	;;
uninstall)
	manifest | while read -r _ dest _; do
		rm -f "$root/$dest"
	done
	own_dirs | while read -r d; do
		if [ -d "$root/$d" ]; then
			rmdir "$root/$d" 2>/dev/null || echo "install.sh: '$root/$d' is not empty, kept" >&2
		fi
	done
	;;
*)
	echo "install.sh: unknown action '$action' (install, uninstall, list)" >&2
	exit 2
	;;
esac
