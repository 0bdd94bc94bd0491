#!/bin/sh
# embed-text.sh NAME FILE: FILE's bytes as a C array NAME, NUL-terminated, so
# a text that is not C (a target script, the report's CSS) travels inside the
# binary and is edited, read and checked as the file it is.
set -eu
[ $# -eq 2 ] || { echo "usage: embed-text.sh NAME FILE" >&2; exit 2; }
printf 'static const char %s[] = {\n' "$1"
od -An -v -tx1 "$2" | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g' -e '/^$/d'
printf '0x00 };\n'
