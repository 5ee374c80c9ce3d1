# bash completion for benchgrid (installed as
# share/bash-completion/completions/benchgrid).
#
# Commands, each command's options (read from `benchgrid CMD --help`, so
# they are the ones the program parses), scenario files (*.yaml, *.yml),
# directories for -o/--resume/report/merge, help topics, and the values of
# `-D name=value` and `--only name=value` read from the scenario with
# `benchgrid plan SPEC --list-params` (which runs nothing). Works with or
# without the bash-completion package, and with or without '=' in
# COMP_WORDBREAKS.

_benchgrid_bin() {
	local b=${COMP_WORDS[0]}
	[[ $b == */* ]] && b=${b/#\~/$HOME}
	printf '%s' "$b"
}

# Options that take an argument (their next word is not the scenario).
_benchgrid_takes_arg() {
	case $1 in
	-D | --define | --only | -o | --output | --resume | --work-dir | --format | --shard | --shards | \
		--parallel | --partition | --time | --sbatch-arg) return 0 ;;
	esac
	return 1
}

# The command's options: from its usage lines and its indented option lines.
_benchgrid_options() {
	"$1" "$2" --help 2>/dev/null | awk '
		NR == 1 || (u && /^ +\[/) { u = 1; print; next }
		{ u = 0 }
		/^ +-/ { sub(/^ +/, ""); sub(/  .*/, ""); print }' | grep -oE -- '(^|[][ ,|])--?[A-Za-z][A-Za-z0-9-]*' | tr -d '[], |' | sort -u
}

# Values for -D (kind var) or --only (kind param): "name=value" lines.
_benchgrid_params() {
	local bin=$1 spec=$2 kind=$3
	[[ -n $spec && -r $spec ]] || return 0
	"$bin" plan "$spec" --list-params 2>/dev/null | awk -F'\t' -v k="$kind" '$1 == k { print $2 "=" $3 }'
}

# Offer each line of stdin that starts with PREFIX, shell-quoted. The lines
# come from a scenario (plan --list-params), so they are never handed to
# `compgen -W`, which would expand $(...) and backticks in them, and what is
# inserted into the command line is quoted (printf %q), so running the
# completed line cannot run them either.
_benchgrid_offer() {
	local prefix=$1 w
	while IFS= read -r w; do
		[[ -n $w && $w == "$prefix"* ]] && COMPREPLY+=("$(printf '%q' "$w")")
	done
}

_benchgrid_files() {
	local cur=$1 f
	local IFS=$'\n'
	for f in $(compgen -d -- "$cur"); do COMPREPLY+=("$f/"); done
	for f in $(compgen -f -- "$cur"); do
		[[ -f $f && ($f == *.yaml || $f == *.yml) ]] && COMPREPLY+=("$f")
	done
	compopt -o nospace 2>/dev/null || true
}

_benchgrid() {
	COMPREPLY=()
	local cw=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin cmd= spec= i w
	bin=$(_benchgrid_bin)
	for ((i = 1; i < cw; i++)); do
		w=${COMP_WORDS[i]}
		if [[ -z $cmd ]]; then
			[[ $w != -* ]] && cmd=$w
		elif [[ -z $spec && $w != -* && $w != = ]] && ! _benchgrid_takes_arg "${COMP_WORDS[i - 1]}" &&
			[[ ${COMP_WORDS[i + 1]} != = && ${COMP_WORDS[i - 1]} != = ]]; then
			spec=$w
		fi
	done
	if [[ -z $cmd ]]; then
		local cmds
		cmds=$("$bin" --help 2>/dev/null | awk '/^commands:/ { c = 1; next } c && /^  [a-z]/ { print $1 } c && /^$/ { c = 0 }')
		_benchgrid_offer "$cur" < <(printf '%s\n' $cmds help --help --version)
		return 0
	fi
	spec=${spec/#\~/$HOME}

	# -D name=value and --only name=value, whichever way '=' splits words.
	local opt= name= value= split=
	if [[ $prev == = && $cw -ge 3 ]]; then # "-D" "name" "=" "val"
		opt=${COMP_WORDS[cw - 3]} name=${COMP_WORDS[cw - 2]} value=$cur split=1
	elif [[ $cur == = && $cw -ge 2 ]]; then # "-D" "name" "="
		opt=${COMP_WORDS[cw - 2]} name=$prev value= split=1
	else
		opt=$prev
	fi
	case $opt in
	-D | --define | --only)
		local kind=var
		[[ $opt == --only ]] && kind=param
		local all
		all=$(_benchgrid_params "$bin" "$spec" $kind)
		if [[ -n $split ]]; then
			local l
			_benchgrid_offer "$value" < <(while IFS= read -r l; do
				[[ ${l%%=*} == "$name" ]] && printf '%s\n' "${l#*=}"
			done <<<"$all")
		elif [[ $cur == *=* ]]; then
			_benchgrid_offer "$cur" <<<"$all"
		else
			_benchgrid_offer "$cur" < <(printf '%s\n' "$all" | sed -n 's/=.*/=/p' | sort -u)
			compopt -o nospace 2>/dev/null || true
		fi
		return 0
		;;
	esac
	case $prev in
	-o | --output | --resume | --work-dir)
		if [[ $cmd == import-fio ]]; then
			_benchgrid_files "$cur"
		else
			local IFS=$'\n'
			COMPREPLY=($(compgen -d -- "$cur"))
		fi
		return 0
		;;
	--format)
		COMPREPLY=($(compgen -W "table tsv json" -- "$cur"))
		return 0
		;;
	--shard)
		COMPREPLY=($(compgen -W "auto" -- "$cur"))
		return 0
		;;
	--shards | --parallel | --partition | --time | --sbatch-arg) return 0 ;;
	esac
	if [[ $cmd == help ]]; then
		_benchgrid_offer "$cur" < <("$bin" help --list 2>/dev/null | awk '{ print $1 }'; echo --list)
		return 0
	fi
	if [[ $cur == -* ]]; then
		_benchgrid_offer "$cur" < <(_benchgrid_options "$bin" "$cmd"; echo --help)
		return 0
	fi
	local IFS=$'\n'
	case $cmd in
	check | plan | run | slurm) [[ -z $spec ]] && _benchgrid_files "$cur" ;;
	merge | report | compare) COMPREPLY=($(compgen -d -- "$cur")) ;;
	cleanup | import-fio) COMPREPLY=($(compgen -f -- "$cur")) ;;
	esac
	return 0
}
complete -F _benchgrid benchgrid
