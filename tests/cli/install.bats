#!/usr/bin/env bats
# make install into a DESTDIR: the installed binary runs from there, its man
# pages and completion work, and make uninstall removes exactly what it put.

setup() {
	src=$BATS_TEST_DIRNAME/../..
	tmp=$(mktemp -d)
	dest=$tmp/dest
	prefix=/usr/local
	# The suite's own build; make must not rebuild or relink anything here.
	build=${BOOTAB_BUILD:-build}
}

teardown() {
	rm -rf "$tmp"
}

make_here() {
	MAKEFLAGS= MAKELEVEL= make -s -C "$src" "$@" BUILD="$build" PREFIX="$prefix" DESTDIR="$dest"
}

@test "install, use the installed bootab, uninstall: nothing is left" {
	run make_here install
	[ "$status" -eq 0 ]
	root=$dest$prefix

	# Exactly the listed files, with the listed modes.
	diff -u <(sh "$src/tools/install.sh" list "$build" "$prefix" | LC_ALL=C sort) \
		<(cd "$dest" && find . -type f | sed 's|^\.||' | LC_ALL=C sort)
	[ -x "$root/bin/bootab" ]
	[ "$(stat -c %a "$root/share/man/man1/bootab.1")" = 644 ]
	[ -f "$root/share/man/man5/bootab-plan.5" ]
	[ -f "$root/share/man/man5/bootab-results.5" ]
	[ -f "$root/share/bash-completion/completions/bootab" ]
	[ -f "$root/share/doc/bootab/README.md" ]
	[ -f "$root/share/doc/bootab/docs/plan.md" ]
	[ -f "$root/share/doc/bootab/examples/lab-iommu.ini" ]
	if [ -f "$src/lab/build.sh" ]; then
		cmp "$src/lab/build.sh" "$root/share/bootab/lab/build.sh"
	fi

	# The installed binary, run from there.
	run "$root/bin/bootab" --version
	[ "$status" -eq 0 ]
	[ "$output" = "$("$BOOTAB" --version)" ]
	run "$root/bin/bootab" help compare
	[ "$status" -eq 0 ]
	[ "$output" = "$("$BOOTAB" help compare)" ]
	run "$root/bin/bootab" plan "$root/share/doc/bootab/examples/lab-iommu.ini"
	[ "$status" -eq 0 ]

	# The installed pages: found by name under the installed man tree.
	for page in "$root"/share/man/man*/*; do
		err=$(LC_ALL=C man --warnings -l "$page" 2>&1 >/dev/null)
		[ -z "$err" ] || { echo "$page: $err"; false; }
	done
	run env LC_ALL=C MANWIDTH=100 man -M "$root/share/man" 1 bootab
	[ "$status" -eq 0 ]
	[[ "$output" == *"   bootab compare"* ]]
	run env LC_ALL=C man -M "$root/share/man" 5 bootab-plan
	[ "$status" -eq 0 ]
	[[ "$output" == *"[campaign]"* ]]

	# The installed completion completes with the installed binary.
	run bash -c 'source "$1/share/bash-completion/completions/bootab"
		COMP_WORDS=("$1/bin/bootab" pl); COMP_CWORD=1; _bootab; printf "%s\n" "${COMPREPLY[@]}"' _ "$root"
	[ "$status" -eq 0 ]
	[ "$output" = plan ]

	# Installing again over the first install is fine.
	run make_here install
	[ "$status" -eq 0 ]

	# A file that is not bootab's stays, with its directory.
	mkdir -p "$root/share/man/man1"
	echo other >"$root/share/man/man1/other.1"

	run make_here uninstall
	[ "$status" -eq 0 ]
	run find "$dest" -type f
	[ "$output" = "$dest$prefix/share/man/man1/other.1" ]
	run find "$dest" -name '*bootab*'
	[ "$output" = "" ]
}

@test "uninstall keeps a bootab directory that holds someone else's file, and says so" {
	run make_here install
	[ "$status" -eq 0 ]
	echo mine >"$dest$prefix/share/doc/bootab/examples/notes.txt"
	run make_here uninstall
	[ "$status" -eq 0 ]
	[[ "$output" == *"share/doc/bootab/examples' is not empty, kept"* ]]
	run find "$dest" -type f
	[ "$output" = "$dest$prefix/share/doc/bootab/examples/notes.txt" ]
}

@test "a relative PREFIX is refused" {
	prefix=usr
	run make_here install
	[ "$status" -ne 0 ]
	[[ "$output" == *"PREFIX must be an absolute path, not 'usr'"* ]]
	[ ! -e "$dest" ]
}
