# bootab send-files: the function run-fetch.sh and run-watch.sh send a run
# directory's files with (their text carries it: target_script_render puts
# it in place of the line that sources it).
# send_files DIR LIMIT prints, for every regular file directly in DIR whose
# name is letters, digits, '.', '_' and '-' (no *.tmp, no link):
#   file NAME SIZE   then exactly SIZE bytes of the file and a newline
#   skip NAME SIZE   a file larger than LIMIT bytes: not sent, never cut
# Forks do not grow with the files: the sizes come from one wc, the files
# are frozen by one cp into DIR/.send.PID and sent, with every record's
# line, by one cat; an empty file starts no process at all. Where that
# directory cannot be made (DIR read-only, no space) each file is sent
# on its own with head -c, two processes a file. Either way each file's
# bytes are what its size says, even should it change meanwhile.
send_files() {
	_here=$PWD
	cd "$1" || return 1
	_limit=$2
	set +f
	_names=
	_full=
	for _n in *; do
		case $_n in
		'' | .* | *[!A-Za-z0-9._-]* | *.tmp) continue ;;
		esac
		if [ ! -f "$_n" ] || [ -h "$_n" ]; then
			continue
		fi
		_names="$_names $_n"
		[ -s "$_n" ] && _full="$_full $_n"
	done
	set -f
	_t=.send.$$
	if [ -z "$_full" ] || ! mkdir "$_t" 2> /dev/null; then
		_t=
	fi
	# shellcheck disable=SC2086 # names hold no space, globbing is off
	if [ -n "$_t" ] && wc -c -- $_full > "$_t/=sizes" 2> /dev/null; then
		# The files within the limit, by their size now; the rest are skipped.
		_copy=
		_skip=" "
		set -- $_full
		while [ $# -gt 0 ] && read -r _s _n; do
			[ "$_n" = "$1" ] || continue
			shift
			if [ "$_s" -gt "$_limit" ]; then
				_skip="$_skip$_n:$_s "
			else
				_copy="$_copy $_n"
			fi
		done < "$_t/=sizes"
		_frozen=
		for _n in $_copy; do
			_frozen="$_frozen $_t/$_n"
		done
		if [ $# -eq 0 ] && { [ -z "$_copy" ] || { cp -- $_copy "$_t/" && wc -c -- $_frozen > "$_t/=sizes"; } 2> /dev/null; } &&
			frozen_sizes; then
			send_frozen
			_r=$?
			rm -rf "$_t"
			cd "$_here" || return 1
			return $_r
		fi
	fi
	[ -z "$_t" ] || rm -rf "$_t"
	for _n in $_names; do
		send_one "./$_n"
	done
	cd "$_here" || return 1
}

# frozen_sizes: _size_0... of the copies in $_t, from $_t/=sizes (wc's
# lines in the order of its arguments); false if one is missing.
frozen_sizes() {
	# shellcheck disable=SC2086 # names hold no space, globbing is off
	set -- $_frozen
	_i=0
	while [ $# -gt 0 ] && read -r _s _n; do
		[ "$_n" = "$1" ] || continue
		shift
		eval "_size_$_i=\$_s"
		_i=$((_i + 1))
	done < "$_t/=sizes"
	[ $# -eq 0 ]
}

# send_frozen: the records of $_names, the files' bytes from their copies
# in $_t, by one cat; each record's line is a file of its own there.
send_frozen() {
	_list=
	_i=0
	_j=0
	: > "$_t/=0"
	for _n in $_names; do
		case " $_full " in
		*" $_n "*) ;;
		*)
			printf 'file %s 0\n\n' "$_n" >> "$_t/=$_j"
			continue
			;;
		esac
		case $_skip in
		*" $_n:"*)
			_s=${_skip#*" $_n:"}
			printf 'skip %s %s\n' "$_n" "${_s%% *}" >> "$_t/=$_j"
			continue
			;;
		esac
		eval "_s=\$_size_$_i"
		_i=$((_i + 1))
		if [ "$_s" -gt "$_limit" ]; then
			# It grew past the limit since it was first measured.
			printf 'skip %s %s\n' "$_n" "$_s" >> "$_t/=$_j"
			continue
		fi
		printf 'file %s %s\n' "$_n" "$_s" >> "$_t/=$_j"
		_list="$_list $_t/=$_j $_t/$_n"
		_j=$((_j + 1))
		printf '\n' > "$_t/=$_j"
	done
	# shellcheck disable=SC2086
	cat -- $_list "$_t/=$_j"
}

# send_one FILE: one file's record, its bytes by head -c.
send_one() {
	size=0
	[ -f "$1" ] && size=$(wc -c < "$1")
	size=$((size + 0))
	if [ "$size" -gt "$_limit" ]; then
		printf 'skip %s %s\n' "${1##*/}" "$size"
		return
	fi
	printf 'file %s %s\n' "${1##*/}" "$size"
	[ "$size" -eq 0 ] || head -c "$size" "$1"
	printf '\n'
}
