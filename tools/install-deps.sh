#!/bin/sh
# Installs the Debian packages listed in the given files (default
# tools/debian-packages: what bootab and its lab need) that are not
# installed yet. Runs apt-get through sudo when not root.
#   usage: tools/install-deps.sh [LIST...]
set -eu
here=$(dirname "$0")
[ $# -gt 0 ] || set -- "$here/debian-packages"
missing=
# shellcheck disable=SC2013 # one package name per line, no spaces
for p in $(grep -hv "^#" "$@"); do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
		missing="$missing $p"
	fi
done
[ -n "$missing" ] || exit 0
echo "bootab: installing Debian packages:$missing" >&2
if [ "$(id -u)" -eq 0 ]; then
	sudo=
else
	sudo=sudo
fi
# shellcheck disable=SC2086 # word splitting of the package list is wanted
$sudo apt-get update -q
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q $missing
