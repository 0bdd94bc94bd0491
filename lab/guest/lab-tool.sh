#!/bin/sh
# fio and perf for the lab guest, installed as lab-fio and lab-perf (and as
# fio and perf). Each tool and the libraries it links travel as
# /boot/TOOL.tar; the first call unpacks them into /opt/TOOL (RAM, gone after
# a reboot), later calls run it directly through its own copy of the
# dynamic loader.
set -e
tool=${0##*/}
tool=${tool#lab-}
case $tool in
fio|perf) ;;
*) echo "lab-tool: run as lab-fio or lab-perf, not $tool" >&2; exit 127 ;;
esac
if [ ! -x "/opt/$tool/bin/$tool" ]; then
	tmp=$(mktemp -d "/opt/.$tool.XXXXXX")
	tar -xf "/boot/$tool.tar" -C "$tmp"
	mv "$tmp/$tool" "/opt/$tool" 2>/dev/null || true
	rm -rf "$tmp"
fi
exec "/opt/$tool/lib/ld-linux-x86-64.so.2" --library-path "/opt/$tool/lib" "/opt/$tool/bin/$tool" "$@"
