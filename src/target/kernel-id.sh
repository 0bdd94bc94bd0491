# bootab kernel-id: what the running kernel is, read from procfs, sysfs and
# /boot: its build, the package that brought it, its config.
#
# Usage: sh kernel-id.sh [noconfig|config]
#   noconfig: the records before the config's (version, notes, package);
#   config: the config's records only. The two, one after the other, print
#   what a run without an argument prints.
# ROOT (default empty) is prefixed to every path read, so the same script
# reads a captured tree. The controller runs it right after snapshot.sh and
# reads its records as part of that snapshot (same format: one record per
# line, fields separated by one TAB, no control characters in values):
#   kernel_version VALUE           /proc/sys/kernel/version (uname -v)
#   kernel_notes HEX               /sys/kernel/notes (the kernel's ELF notes, its GNU
#                                  build id among them), at most 2048 bytes, as hex
#   kernel_package dpkg|rpm NAME   the package owning /boot/vmlinuz-RELEASE (dpkg:
#                                  "NAME VERSION"), when the package manager knows it
#   kernel_config SOURCE SHA256    /boot/config-RELEASE, else /proc/config.gz, and the
#                                  SHA-256 of its text ("-" without sha256sum); then
#   kconfig NAME VALUE             one per option it sets (CONFIG_NAME=VALUE lines)
set -u
part=${1-}
case $part in
'' | noconfig | config) ;;
*)
	echo "kernel-id.sh: unknown argument '$part'" >&2
	exit 2
	;;
esac
ROOT=${ROOT-}
LC_ALL=C
export LC_ALL

rec() {
	printf '%s' "$1"
	shift
	for field in "$@"; do
		printf '\t%s' "$field"
	done
	printf '\n'
}

# The one check of every file read under ROOT: inside ROOT once its links
# are resolved, and a regular file (a FIFO would block the read, a device
# stream). Else the script ends naming it; a missing one is just absent.
RR=
[ -z "$ROOT" ] || RR=$(cd "$ROOT" 2>/dev/null && pwd -P) || RR=/nonexistent
HERE=$PWD
inside_root() {
	[ -z "$RR" ] && return 0
	# cd -P resolves a directory and every link on the way to it; a
	# file that is itself a link takes readlink.
	q=
	if [ -d "$1" ]; then
		q=$1
	elif [ ! -h "$1" ]; then
		q=${1%/*}
	fi
	if [ -n "$q" ] && cd -P -- "$q" 2>/dev/null; then
		q=$PWD
		cd "$HERE" || exit 1
	else
		q=$(readlink -f -- "$1" 2>/dev/null)
	fi
	case $q in
	"$RR" | "$RR"/*) return 0 ;;
	esac
	return 1
}
readable() {
	[ -e "$1" ] || return 1
	[ -z "$RR" ] && { [ -r "$1" ]; return; }
	if ! inside_root "$1"; then
		printf "'%s' under the root is a link out of it: refused\\n" "${1#"$ROOT"}" >&2
		exit 5
	fi
	[ ! -d "$1" ] || return 1
	if [ ! -f "$1" ]; then
		printf "'%s' under the root is not a regular file: refused\\n" "${1#"$ROOT"}" >&2
		exit 6
	fi
	[ -r "$1" ]
}
first_line() {
	head -c 4096 "$1" 2>/dev/null | head -n 1 | tr -d '\000-\037\177'
}
# The same into L with the shell's read, no fork; a control byte or a line
# over 4096 bytes takes the long way, so L is always what first_line prints.
CTL=$(printf '\001\002\003\004\005\006\007\010\011\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037\177')
line_of() {
	L=
	readable "$1" || return 0
	{ IFS= read -r L < "$1"; } 2> /dev/null
	[ ${#L} -le 4096 ] || L=$(first_line "$1")
	case $L in *[$CTL]*) L=$(first_line "$1") ;; esac
}

# The running kernel: what build it is, which package brought it, its config.
line_of "$ROOT/proc/sys/kernel/osrelease"
release=$L
case $release in
'' | *[!A-Za-z0-9._+~-]* | .*) release= ;;
esac
if [ "$part" != config ]; then
	if readable "$ROOT/proc/sys/kernel/version"; then
		line_of "$ROOT/proc/sys/kernel/version"
		rec kernel_version "$L"
	fi
	if readable "$ROOT/sys/kernel/notes"; then
		hex=$(head -c 2048 "$ROOT/sys/kernel/notes" 2>/dev/null | od -An -v -tx1 2>/dev/null | tr -d ' \n')
		[ -n "$hex" ] && rec kernel_notes "$hex"
	fi
	if [ -n "$release" ]; then
		image=/boot/vmlinuz-$release
		if [ -d "$ROOT/var/lib/dpkg/info" ]; then
			# dpkg -S reads these lists; reading them directly works on a tree too.
			# Debian's package of RELEASE's image is linux-image-RELEASE: that
			# list first, every list (megabytes) only when it is not the one.
			list=$ROOT/var/lib/dpkg/info/linux-image-$release.list
			if ! { readable "$list" && grep -q -x -F "$image" "$list" 2>/dev/null; }; then
				# Every list passes the check before the one grep reads them all.
				for f in "$ROOT"/var/lib/dpkg/info/*.list; do
					[ -z "$RR" ] || readable "$f" || :
				done
				list=$(grep -l -x -F "$image" "$ROOT"/var/lib/dpkg/info/*.list 2>/dev/null | head -n 1)
			fi
			if [ -n "$list" ]; then
				pkg=${list##*/}
				pkg=${pkg%.list}
				pkg=${pkg%%:*}
				ver=
				readable "$ROOT/var/lib/dpkg/status" &&
					ver=$(awk -v p="$pkg" '/^Package: / { cur = $2 } /^Version: / && cur == p { print $2; exit }' \
						"$ROOT/var/lib/dpkg/status" 2>/dev/null | tr -d '\000-\037\177')
				rec kernel_package dpkg "$(printf '%s' "$pkg${ver:+ $ver}" | tr -d '\000-\037\177')"
			fi
		elif [ -z "$ROOT" ] && command -v rpm >/dev/null 2>&1; then
			# Fedora's image is /lib/modules/RELEASE/vmlinuz (kernel-core); /boot holds a copy.
			for f in "/lib/modules/$release/vmlinuz" "$image"; do
				[ -e "$f" ] || continue
				if pkg=$(rpm -qf "$f" 2>/dev/null); then
					rec kernel_package rpm "$(printf '%s' "$pkg" | head -n 1 | tr -d '\000-\037\177')"
					break
				fi
			done
		fi
	fi
fi
config=
if [ "$part" = noconfig ]; then
	:
elif [ -n "$release" ] && readable "$ROOT/boot/config-$release"; then
	config=/boot/config-$release
elif readable "$ROOT/proc/config.gz" && command -v gzip >/dev/null 2>&1; then
	config=/proc/config.gz
fi
if [ -n "$config" ]; then
	config_text() {
		if [ "$config" = /proc/config.gz ]; then
			gzip -dc "$ROOT/proc/config.gz" 2>/dev/null | head -c 4194304
		else
			head -c 4194304 "$ROOT$config"
		fi
	}
	sum=-
	if command -v sha256sum >/dev/null 2>&1; then
		sum=$(config_text | sha256sum)
		sum=${sum%% *}
	fi
	rec kernel_config "$config" "$sum"
	tab=$(printf '\t')
	config_text | tr -d '\000-\011\013-\037\177' |
		sed -n "/^CONFIG_[A-Za-z0-9_]*=/{s/=/$tab/;s/^/kconfig$tab/;p;}" | head -n 40000
fi

