# bash completion for bootab(1).
#
# Commands, each command's options and the fixed values an option takes come
# from the binary itself ('bootab help --commands' and 'bootab help CMD',
# whose text follows the layout in src/commands.h), so they always match the
# bootab being completed. What other values and positional arguments can be
# (plan files, side directories, targets, modes) is known here.

# The help text of a command (or the command list, for ""), asked once per
# shell and binary.
declare -gA _bootab_help_cache

_bootab_help_text()
{
	local bin=$1 cmd=$2 key="$1|$2"

	if [[ -z ${_bootab_help_cache[$key]+set} ]]; then
		if [[ -z $cmd ]]; then
			_bootab_help_cache[$key]=$("$bin" help --commands 2>/dev/null)
		else
			_bootab_help_cache[$key]=$("$bin" help "$cmd" 2>/dev/null)
		fi
	fi
	printf '%s\n' "${_bootab_help_cache[$key]}"
}

# Options of a synopsis on stdin (up to its first blank line), as
# "OPTION NARGS [VALUE|VALUE...]": "[--format txt|md|json]" takes one value
# of three, "--resume DIR" one, "[--json]" none.
_bootab_synopsis_options()
{
	local line word opt='' nargs=0 values=''
	local -a words

	while IFS= read -r line && [[ -n $line ]]; do
		read -ra words <<<"${line#usage:}"
		for word in "${words[@]}" ''; do
			if [[ -n $opt && ( -z $word || $word == -* || $word == '['* ) ]]; then
				printf '%s %s %s\n' "$opt" "$nargs" "$values"
				opt=''
			fi
			if [[ $word == -* || $word == '['-* ]]; then
				opt=${word#[}
				opt=${opt%%]*}
				nargs=0
				values=''
			elif [[ -n $opt ]]; then
				nargs=$((nargs + 1))
				[[ $word == *'|'* ]] && values=${word%%]*}
			fi
			if [[ -n $opt && $word == *]* ]]; then
				printf '%s %s %s\n' "$opt" "$nargs" "$values"
				opt=''
			fi
		done
	done
}

# The values an option's description starts with, "a|b|c", when it lists a
# fixed set the way src/commands.h asks: "txt (default), md, csv or json"
# (parenthesised words dropped, up to the first ';').
_bootab_description_values()
{
	local desc=${1%%;*} piece out=''
	local -a pieces

	while [[ $desc == *'('*')'* ]]; do
		desc=${desc%%'('*}${desc#*')'}
	done
	desc=${desc// or /,}
	IFS=, read -ra pieces <<<"$desc"
	((${#pieces[@]} >= 2)) || return 0
	for piece in "${pieces[@]}"; do
		read -r piece <<<"$piece"
		[[ $piece =~ ^[a-z][a-z0-9-]*$ ]] || return 0
		out+=${out:+|}$piece
	done
	printf '%s' "$out"
}

# Prints "OPTION NARGS [VALUE|VALUE...]" for every option of a command. Its
# help's list items whose term starts with '-' ("  -o, --output DIR   ...")
# come first: NARGS counts the words after the term's last option. Then the
# options that only its synopsis shows.
_bootab_options()
{
	local help line term desc word nargs values
	local -a opts
	local -A seen=()

	help=$(_bootab_help_text "$1" "$2")
	while IFS= read -r line; do
		[[ $line =~ ^\ \ -[^\ ] ]] || continue
		term=${line#  }
		desc=''
		if [[ $term == *'  '* ]]; then
			desc=${term#*  }
			term=${term%%  *}
		fi
		opts=()
		nargs=0
		for word in $term; do
			if [[ $word == -* ]]; then
				opts+=("${word%,}")
				nargs=0
			else
				nargs=$((nargs + 1))
			fi
		done
		values=''
		((nargs == 1)) && values=$(_bootab_description_values "$desc")
		for word in "${opts[@]}"; do
			seen[$word]=1
			printf '%s %s %s\n' "$word" "$nargs" "$values"
		done
	done <<<"$help"
	while read -r word nargs values; do
		[[ -n $word && -z ${seen[$word]+set} ]] || continue
		seen[$word]=1
		printf '%s %s %s\n' "$word" "$nargs" "$values"
	done < <(_bootab_synopsis_options <<<"$help")
}

# Subcommands named in a command's synopsis: "bootab lab up ...".
_bootab_subcommands()
{
	local line re="^(usage:)? +bootab $2 ([a-z][a-z-]*)( |$)"

	while IFS= read -r line; do
		[[ $line =~ $re ]] && printf '%s\n' "${BASH_REMATCH[2]}"
	done < <(_bootab_help_text "$1" "$2")
}

# Host aliases from ~/.ssh/config and the files it includes, without
# patterns.
_bootab_ssh_hosts()
{
	local file=$1 depth=${2:-0} key rest host inc
	local -a words

	[[ -r $file ]] || return 0
	while read -r key rest; do
		key=${key,,}
		if [[ $key == *=* ]]; then
			rest="${key#*=} $rest"
			key=${key%%=*}
		fi
		case $key in
		host)
			read -ra words <<<"$rest"
			for host in "${words[@]}"; do
				[[ $host == *[*?!]* ]] || printf '%s\n' "$host"
			done
			;;
		include)
			((depth < 4)) || continue
			read -ra words <<<"$rest"
			for inc in "${words[@]}"; do
				case $inc in
				/*) ;;
				'~'*) inc=$HOME${inc#'~'} ;;
				*) inc=$HOME/.ssh/$inc ;;
				esac
				for host in $inc; do
					_bootab_ssh_hosts "$host" $((depth + 1))
				done
			done
			;;
		esac
	done <"$file"
}

_bootab_targets()
{
	local bin=$1

	printf '%s\n' local
	if _bootab_help_text "$bin" "" | grep -qx lab; then
		printf '%s\n' lab
	fi
	_bootab_ssh_hosts "$HOME/.ssh/config" | sort -u
}

# Mode names of the plan file on the command line (the first *.ini word).
_bootab_modes()
{
	local word plan='' line re='^\[mode +"([^"]+)"\]'

	for word in "${COMP_WORDS[@]}"; do
		if [[ $word == *.ini ]]; then
			plan=${word/#\~/$HOME}
			break
		fi
	done
	[[ -n $plan && -r $plan ]] || return 0
	while IFS= read -r line; do
		[[ $line =~ $re ]] && printf '%s\n' "${BASH_REMATCH[1]}"
	done <"$plan"
}

_bootab_compgen_words()
{
	mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -W "$1" -- "$2")
}

_bootab_dirs()
{
	mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$1")
	compopt -o filenames 2>/dev/null || :
}

_bootab_files()
{
	mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X "!$2" -- "$1"; compgen -d -- "$1")
	compopt -o filenames 2>/dev/null || :
}

# The value of option OPT of command CMD; VALUES, when the help lists them
# ("txt|md|json"), are the candidates. The rest is known here.
_bootab_option_value()
{
	local bin=$1 cmd=$2 opt=$3 cur=$4 values=${5-}

	if [[ -n $values ]]; then
		_bootab_compgen_words "${values//|/ }" "$cur"
		return 0
	fi
	case $cmd:$opt in
	*:--target) _bootab_compgen_words "$(_bootab_targets "$bin")" "$cur" ;;
	*:--mode) _bootab_compgen_words "$(_bootab_modes)" "$cur" ;;
	*:--root | *:--resume | *:--data | *:-o | *:--output) _bootab_dirs "$cur" ;;
	*:--diff) _bootab_files "$cur" '*.json' ;;
	*:--plan) _bootab_files "$cur" '*.ini' ;;
	esac
}

# A positional argument of CMD; WORDS are the positionals before it.
_bootab_positional()
{
	local bin=$1 cmd=$2 cur=$3
	shift 3

	case $cmd in
	help) _bootab_compgen_words "$(_bootab_help_text "$bin" "")" "$cur" ;;
	plan | run) (($# == 0)) && _bootab_files "$cur" '*.ini' ;;
	compare) _bootab_dirs "$cur" ;;
	report) (($# == 0)) && _bootab_dirs "$cur" ;;
	lab) (($# == 0)) && _bootab_compgen_words "$(_bootab_subcommands "$bin" lab)" "$cur" ;;
	esac
	return 0
}

_bootab()
{
	local bin=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]} cmd='' i word opt n
	local -A nargs=() values=()
	local -a positionals=()

	COMPREPLY=()
	bin=${bin/#\~/$HOME}
	command -v "$bin" >/dev/null 2>&1 || bin=bootab

	# The command: the first word that is not a global option.
	for ((i = 1; i < COMP_CWORD; i++)); do
		if [[ ${COMP_WORDS[i]} != -* ]]; then
			cmd=${COMP_WORDS[i]}
			break
		fi
	done
	if [[ -z $cmd ]]; then
		if [[ $cur == -* ]]; then
			_bootab_compgen_words "--help --version" "$cur"
		else
			_bootab_compgen_words "$(_bootab_help_text "$bin" "")" "$cur"
		fi
		return 0
	fi

	while read -r opt n word; do
		[[ -n $opt ]] || continue
		nargs[$opt]=$n
		values[$opt]=$word
	done < <(_bootab_options "$bin" "$cmd")

	# Walk the words after the command: options, their values, positionals.
	for ((i = i + 1; i < COMP_CWORD; i++)); do
		word=${COMP_WORDS[i]}
		if [[ $word == -- ]]; then
			return 0
		fi
		# --opt=value: with '=' in COMP_WORDBREAKS bash splits it in three.
		if [[ ${COMP_WORDS[i + 1]} == = ]] && [[ -n ${nargs[$word]+set} ]]; then
			if ((i + 2 == COMP_CWORD)); then
				_bootab_option_value "$bin" "$cmd" "$word" "$cur" "${values[$word]}"
				return 0
			fi
			((i += 2))
			continue
		fi
		if [[ $word == -* && -n ${nargs[$word]+set} ]]; then
			n=${nargs[$word]}
			if ((i + n >= COMP_CWORD)); then
				_bootab_option_value "$bin" "$cmd" "$word" "$cur" "${values[$word]}"
				return 0
			fi
			((i += n))
			continue
		fi
		[[ $word == -* ]] || positionals+=("$word")
	done
	if [[ $cur == = && -n ${nargs[${COMP_WORDS[COMP_CWORD - 1]}]+set} ]]; then
		_bootab_option_value "$bin" "$cmd" "${COMP_WORDS[COMP_CWORD - 1]}" "" "${values[${COMP_WORDS[COMP_CWORD - 1]}]}"
		return 0
	fi

	# After 'bootab lab ssh' comes a command for the guest.
	if [[ $cmd == lab && ${positionals[0]-} == ssh ]]; then
		return 0
	fi
	if [[ $cur == -* ]]; then
		_bootab_compgen_words "$(printf '%s\n' "${!nargs[@]}" | sort) --help" "$cur"
		return 0
	fi
	_bootab_positional "$bin" "$cmd" "$cur" "${positionals[@]}"
}

complete -F _bootab bootab
