#!/bin/sh
# Names FILE:LINE: HASH of every word of 7 to 40 hex digits in the given
# files that is a commit of this repository, and exits 1 if there is one:
# the docs and the README say what bootab does, not which build was
# measured (runs and their builds go in bench/results/). Outside a git
# checkout there is nothing to check.
#   usage: tools/doc-hashes.sh FILE...
set -eu

git rev-parse --git-dir >/dev/null 2>&1 || exit 0
found=0
for f in "$@"; do
	# Candidates: whole words of hex digits with at least one letter.
	words=$(grep -ohwE '[0-9a-f]{7,40}' "$f" | grep '[a-f]' | sort -u) || true
	for w in $words; do
		if git cat-file -e "$w^{commit}" 2>/dev/null; then
			grep -nwF "$w" "$f" | sed "s|^\([0-9]*\):.*|$f:\1: $w|"
			found=1
		fi
	done
done
[ "$found" -eq 0 ] || { echo "commit hashes in the docs: give the figure, and put the run in bench/results/" >&2; exit 1; }
