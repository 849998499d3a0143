# bash completion for pgwalk                               -*- shell-script -*-
#
# Everything offered comes from the pgwalk being completed, at the moment of
# completing: commands from `pgwalk --help` (also after `help`), each
# command's options from `pgwalk COMMAND --help`, an option's values from
# the comma-separated list its help text gives (`--mode=MODE  Paging mode:
# i386, pae, x86-64, la57`; a list named for the command, `(info: text,
# json)`, wins for it), layout names from `pgwalk COMMAND --layout=list`,
# and --pid/--comm values from `pgwalk roots` of the IMAGE on the line.  A new command,
# option, mode or format needs no edit here.  Works with and without the
# bash-completion package (which it uses for file names when present).

# _pgwalk_help BIN [COMMAND]: the help text, one line per option (argp's
# continuation lines joined to their option line).
_pgwalk_help()
{
	"$@" --help 2>/dev/null | awk '
		/^ +(-[^-], )?--[A-Za-z0-9]/ { if (line != "") print line; line = $0; next }
		/^          / && line != "" { sub(/^ +/, " "); line = line $0; next }
		{ if (line != "") print line; line = "" }
		END { if (line != "") print line }'
}

# _pgwalk_commands BIN: the commands `pgwalk --help` lists.
_pgwalk_commands()
{
	"$1" --help 2>/dev/null |
		awk '/^Commands:/ { on = 1; next } on && NF == 0 { exit }
		     on { print $1 }'
}

# _pgwalk_options BIN COMMAND: long options, "--name=" for those taking a
# value.
_pgwalk_options()
{
	_pgwalk_help "$1" "$2" |
		sed -nE 's/^ +(-[^-], )?(--[A-Za-z0-9-]+)(\[?=)?.*/\2\3/p' |
		sed 's/\[=$/=/'
}

# _pgwalk_takes_value BIN COMMAND OPTION: does OPTION (long, or short
# like -f) take a value?
_pgwalk_takes_value()
{
	_pgwalk_help "$1" "$2" |
		grep -Eq -- "^ +((-[^-], )?$3=|$3, --[A-Za-z0-9-]+=)"
}

# _pgwalk_values BIN COMMAND OPTION: the values OPTION accepts, as its help
# text lists them; layouts from --layout=list.
_pgwalk_values()
{
	local bin=$1 cmd=$2 opt=$3
	if [[ $opt == --layout ]]; then
		"$bin" "$cmd" --layout=list 2>/dev/null | awk '{ print $1 }'
		echo list
		return
	fi
	if [[ $opt != --* ]]; then
		# A short option: its long name from the same help line.
		opt=$(_pgwalk_help "$bin" "$cmd" |
			sed -nE "s/^ +$opt, (--[A-Za-z0-9-]+).*/\\1/p")
		[[ -n $opt ]] || return
	fi
	if [[ $opt == --pid || $opt == --comm ]]; then
		_pgwalk_owners "$bin" "$opt"
		return
	fi
	_pgwalk_help "$bin" "$cmd" |
		awk -v opt="$opt" -v cmd="$cmd" '{
			s = $0; sub(/^ +(-[^-], )?/, "", s)
			n = index(s, "="); if (n == 0) next
			if (substr(s, 1, n - 1) != opt) next
			w = "[A-Za-z0-9][A-Za-z0-9._-]*"
			# A list given for this command alone: "(info: a, b)".
			if (match(s, "\\(" cmd ": *" w "(, *" w ")*\\)")) {
				list = substr(s, RSTART + length(cmd) + 2,
					      RLENGTH - length(cmd) - 3)
				gsub(/ /, "", list)
				k = split(list, v, ",")
				for (i = 1; i <= k; i++)
					print v[i]
				exit
			}
			while (match(s, "[:(] *" w "(, *" w ")+")) {
				list = substr(s, RSTART + 1, RLENGTH - 1)
				s = substr(s, RSTART + RLENGTH)
				gsub(/ /, "", list)
				k = split(list, v, ",")
				for (i = 1; i <= k; i++)
					if (!(v[i] in seen)) { seen[v[i]] = 1; print v[i] }
			}
		}'
}

# _pgwalk_positionals END: the indices, below END, of the words after the
# command that are no option and no option's value (IMAGE, addresses).
_pgwalk_positionals()
{
	local i w
	for ((i = 2; i < $1; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == = ]]; then
			((i++))
		elif [[ $w == -* ]]; then
			[[ $w != *=* && ${COMP_WORDS[i + 1]-} != = ]] &&
				_pgwalk_takes_value "$bin" "$cmd" "$w" && ((i++))
		else
			echo "$i"
		fi
	done
}

# _pgwalk_image: the first positional word, other than the one being
# completed, that names a file (the IMAGE).
_pgwalk_image()
{
	local i w
	for i in $(_pgwalk_positionals ${#COMP_WORDS[@]}); do
		w=${COMP_WORDS[i]/#\~/$HOME}
		if ((i != COMP_CWORD)) && [[ -f $w ]]; then
			printf '%s\n' "$w"
			return
		fi
	done
}

# _pgwalk_owners BIN --pid|--comm: the pids (every owner of a root) or
# the comms (printable ones: a name the shell can give back) of the
# processes `pgwalk roots` names in the IMAGE on the line.
_pgwalk_owners()
{
	local img
	img=$(_pgwalk_image)
	[[ -n $img ]] || return
	"$1" roots --format=tsv "$img" 2>/dev/null |
		awk -F'\t' -v want="$2" '$1 == "root" && $4 != "-" {
			if (want == "--comm") {
				if ($5 !~ /\\/ && $5 !~ / /) print $5
				next
			}
			print $4
			if (match($15, /pids=[0-9|]+/)) {
				k = split(substr($15, RSTART + 5, RLENGTH - 5), p, "|")
				for (i = 1; i <= k; i++) print p[i]
			}
		}' | sort -u
}

_pgwalk()
{
	local cur=${COMP_WORDS[COMP_CWORD]}
	local prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin=${COMP_WORDS[0]} cmd opt val prefix w i npos
	COMPREPLY=()
	bin=${bin/#\~/$HOME}
	command -v "$bin" >/dev/null 2>&1 || return

	if ((COMP_CWORD == 1)); then
		if [[ $cur == -* ]]; then
			COMPREPLY=($(compgen -W '--help --version' -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_pgwalk_commands "$bin")" \
				-- "$cur"))
		fi
		return
	fi
	cmd=${COMP_WORDS[1]}
	if [[ $cmd == help ]]; then
		((COMP_CWORD == 2)) &&
			COMPREPLY=($(compgen -W "$(_pgwalk_commands "$bin")" \
				-- "$cur"))
		return
	fi
	_pgwalk_commands "$bin" | grep -qxF -- "$cmd" || return

	# A value: --opt=VAL in one word (COMP_WORDBREAKS without '='), the
	# words "--opt" "=" "VAL" (with it), or "--opt VAL" / "-f VAL".
	opt= val= prefix=
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*} val=${cur#*=} prefix=$opt=
	elif [[ $cur == = && $prev == -* ]]; then
		opt=$prev
	elif [[ $prev == = ]] && ((COMP_CWORD >= 3)) &&
		[[ ${COMP_WORDS[COMP_CWORD - 2]} == -* ]]; then
		opt=${COMP_WORDS[COMP_CWORD - 2]} val=$cur
	elif [[ $prev == -* ]] && _pgwalk_takes_value "$bin" "$cmd" "$prev"; then
		opt=$prev val=$cur
	fi
	if [[ -n $opt ]]; then
		COMPREPLY=($(compgen -P "$prefix" \
			-W "$(_pgwalk_values "$bin" "$cmd" "$opt")" -- "$val"))
		return
	fi

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_pgwalk_options "$bin" "$cmd")" \
			-- "$cur"))
		[[ ${COMPREPLY[0]-} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi

	# Positional: the first is IMAGE (a file; diff's second too);
	# addresses after it.
	npos=$(_pgwalk_positionals "$COMP_CWORD" | wc -l)
	((npos == 0)) || [[ $cmd == diff && npos -eq 1 ]] || return
	if declare -F _filedir >/dev/null; then
		_filedir
	else
		compopt -o filenames 2>/dev/null
		COMPREPLY=($(compgen -f -- "$cur"))
	fi
} &&
	complete -F _pgwalk pgwalk
