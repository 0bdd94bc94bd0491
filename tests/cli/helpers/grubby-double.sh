#!/bin/sh
# Stands in, on PATH, for Fedora's grubby, grub2-reboot and grub2-editenv on
# the --root tree $GRUBBY_DOUBLE_TREE (the test links this file under each
# name). grubby: --info=ALL and --info=DEFAULT in
# grubby 8.40's format, from the tree's BLS entries and grubenv saved_entry;
# --update-kernel=ALL with --args or --remove-args edits every entry's
# options; --set-default=IMAGE names that image's entry in saved_entry.
# grub2-reboot ID: next_entry=ID; grub2-editenv FILE unset NAME. The
# environment block stays 1024 bytes. Every call is logged in TREE/tool.log.
set -eu
TREE=${GRUBBY_DOUBLE_TREE:?}
entries=$TREE/boot/loader/entries
env=$TREE/boot/grub2/grubenv
printf '%s %s\n' "${0##*/}" "$*" >>"$TREE/tool.log"

# env_set NAME [VALUE]: the block without NAME, then NAME=VALUE when given
env_set() {
	body=$(grep -v -e '^#' -e "^$1=" "$env" || true)
	if [ $# -eq 2 ]; then
		body=$(printf '%s\n%s=%s' "$body" "$1" "$2" | sed '/^$/d')
	fi
	printf '# GRUB Environment Block\n%s\n' "$body" >"$env.new"
	n=$(wc -c <"$env.new")
	head -c $((1024 - n)) /dev/zero | tr '\0' '#' >>"$env.new"
	mv "$env.new" "$env"
}

info() {
	echo "index=$2"
	echo "kernel=\"$(sed -n 's/^linux[[:space:]]*//p' "$1")\""
	echo "args=\"$(sed -n 's/^options[[:space:]]*//p' "$1")\""
	echo "title=\"$(sed -n 's/^title[[:space:]]*//p' "$1")\""
	id=${1##*/}
	echo "id=\"${id%.conf}\""
}

case ${0##*/} in
grub2-reboot)
	env_set next_entry "$1"
	exit 0
	;;
grub2-editenv)
	[ "$2" = unset ] && env_set "$3"
	exit 0
	;;
esac
case $1 in
--info=ALL)
	i=0
	for f in "$entries"/*.conf; do
		info "$f" "$i"
		i=$((i + 1))
	done
	;;
--info=DEFAULT)
	info "$entries/$(sed -n 's/^saved_entry=//p' "$env").conf" 0
	;;
--update-kernel=ALL)
	for f in "$entries"/*.conf; do
		opts=" $(sed -n 's/^options[[:space:]]*//p' "$f") "
		case $2 in
		--args=*) opts="$opts${2#--args=}" ;;
		--remove-args=*)
			for w in ${2#--remove-args=}; do
				opts=$(printf '%s' "$opts" | sed "s| $w | |g")
			done
			;;
		esac
		opts=$(printf '%s' "$opts" | sed 's/^ *//; s/ *$//')
		sed -i "s|^options.*|options $opts|" "$f"
	done
	;;
--set-default=*)
	for f in "$entries"/*.conf; do
		if [ "$(sed -n 's/^linux[[:space:]]*//p' "$f")" = "${1#--set-default=}" ]; then
			id=${f##*/}
			env_set saved_entry "${id%.conf}"
		fi
	done
	;;
*)
	echo "grubby double: $*" >&2
	exit 1
	;;
esac
