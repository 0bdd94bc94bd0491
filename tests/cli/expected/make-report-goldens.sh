#!/bin/sh
# Writes the golden files of every report format of the fixture campaigns
# (tests/cli/report-golden.bats compares bootab's output with them):
# `bootab report --format txt|md|csv|json|html|mail` on copies of
# tests/fixtures/campaign-lab (a real lab campaign) and
# tests/fixtures/campaign-abca (three rounds, made by its generate.sh), and
# the html of the three `bootab compare` goldens whose txt, md and mail
# golden-*.txt/md already hold. Regenerate, after checking the change by
# eye:
#
#   sh tests/cli/expected/make-report-goldens.sh build/bootab tests/cli/expected
#
# Masked: the directory the campaign was copied to (DIR), bootab's version
# (VERSION, in the html and report.json) and report.json's "generated"
# time (TIME); the other reports print no time of day.
set -eu

if [ $# -ne 2 ]; then
	echo "usage: make-report-goldens.sh BOOTAB OUTDIR" >&2
	exit 2
fi
bootab=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
fx=$here/../../fixtures
r2=$here/../../../examples/case-study/round2
hf=$fx/campaign-hyperfine
abca=$fx/campaign-abca
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# No calibration history but the one a golden names.
XDG_DATA_HOME=$tmp/data
export XDG_DATA_HOME

# run NAME CMD...: CMD's stdout, masked, is OUTDIR/NAME.
run() {
	name=$1
	shift
	if ! "$@" >"$tmp/stdout" 2>"$tmp/stderr"; then
		echo "make-report-goldens.sh: $name: $*:" >&2
		cat "$tmp/stderr" >&2
		exit 1
	fi
	sed -e "s|$tmp/|DIR/|g" -e 's|content="bootab [^"]*"|content="bootab VERSION"|' \
		-e 's|"bootab_version": "[^"]*"|"bootab_version": "VERSION"|' \
		-e 's|^  "generated": "[^"]*"|  "generated": "TIME"|' \
		"$tmp/stdout" >"$out/$name"
}

for c in lab abca; do
	cp -R "$fx/campaign-$c" "$tmp/campaign-$c"
	for f in txt md csv json html mail; do
		run "report-$c.$f" "$bootab" report --format "$f" "$tmp/campaign-$c"
	done
done

run golden-screen.html "$bootab" compare --format html --by-run strata-prefill --by-run strata-decode \
	"$r2/pt" "$r2/translated" "$r2/off" "$r2/pt2"
run golden-hyperfine.html "$bootab" compare --format html \
	"$hf/a" "$hf/b" "$hf/a2" "$hf/b2" "$hf/a3" "$hf/b3"
run golden-history.html "$bootab" compare --format html --history "$fx/history/abca-noisy-aa.json" \
	"$abca/pt3" "$abca/translated3" "$abca/off3" "$abca/pt4"
