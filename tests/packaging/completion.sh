#!/usr/bin/env bash
# The shell completions of completions/: commands, each command's options,
# scenario files, help topics, and the values of -D and --only read from a
# scenario's vars, profiles and matrix with `plan --list-params`.
#   completion.sh bash|zsh
# bash: the completion is sourced and its function called with COMP_WORDS
# and COMP_CWORD set, as bash does; both ways '=' may split words. zsh: the
# function runs with zsh's completion builtins replaced by functions that
# print what would be offered (compadd, _describe, _files), then a real
# interactive zsh with compinit completes typed lines on a pseudo-terminal;
# skipped (77) when zsh is not installed.
set -u
shell=${1:?bash or zsh}
bg=${BENCHGRID:?} src=${BENCHGRID_SRC:?}
fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
bad() {
	echo "FAIL $*"
	fail=$((fail + 1))
}
# The first profile applies by default: runtime is 1s.
cat >"$t/sweep.yaml" <<'Y'
name: sweep
vars: {runtime: 3s, size: 16MiB}
profiles:
  quick: {runtime: 1s}
  long: {runtime: 60s}
matrix:
  bs: [4KiB, 64KiB]
  fs: [ext4, xfs]
steps:
  - name: s
    exec: {command: "true"}
Y
mkdir "$t/sub"
touch "$t/notes.txt" "$t/other.yml"

# plan --list-params itself.
"$bg" plan "$t/sweep.yaml" --list-params >"$t/params" || bad "plan --list-params: exit $?"
for l in $'param\tbs\t4KiB' $'param\tbs\t64KiB' $'param\tfs\txfs' $'var\truntime\t1s' $'var\tsize\t16MiB' \
	$'var\tprofile\tquick' $'var\tprofile\tlong'; do
	grep -qxF "$l" "$t/params" || bad "plan --list-params lacks '$l': $(cat "$t/params")"
done
[[ $(grep -c $'^param\tbs\t' "$t/params") == 2 && $(grep -c $'^var\tprofile\t' "$t/params") == 2 ]] ||
	bad "plan --list-params repeats values"
"$bg" plan "$t/sweep.yaml" --list-params -D runtime=9s | grep -qxF $'var\truntime\t9s' ||
	bad "plan --list-params does not apply -D"

# expect NAME "OFFERED ..." WORDS...: the sorted offers equal the list.
if [[ $shell == bash ]]; then
	# shellcheck source=/dev/null
	source "$src/completions/benchgrid.bash"
	complete -p benchgrid >/dev/null || bad "no 'complete' for benchgrid"
	offers() {
		COMP_WORDS=("$@")
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		COMPREPLY=()
		_benchgrid
		printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
	}
elif [[ $shell == zsh ]]; then
	command -v zsh >/dev/null || {
		echo "SKIP: zsh is not installed (scripts/setup installs it)"
		exit 77
	}
	cat >"$t/run.zsh" <<'Z'
compadd() {
  local a skip=0 all=0
  for a in "$@"; do
    if ((all)); then print -r -- "$a"; continue; fi
    if ((skip)); then skip=0; continue; fi
    case $a in -[SPXJVt]) skip=1 ;; --) all=1 ;; -*) ;; *) print -r -- "$a" ;; esac
  done
}
_describe() { local -a arr; arr=(${(P)4}); print -rl -- "${arr[@]%%:*}" }
_files() { print -r -- "FILES $*" }
_call_program() { shift; "$@" }
compset() { [[ $1 == -P ]] && PREFIX=${PREFIX#*=} }
compdef() { }
source $1; shift
words=("$@"); CURRENT=$#words; PREFIX=$words[CURRENT]
_benchgrid
Z
	offers() {
		# zsh filters the offers by PREFIX itself; the stubs do not, so filter here.
		local cur=${!#}
		cur=${cur#*=}
		zsh -f "$t/run.zsh" "$src/completions/_benchgrid" "$@" | awk -v p="$cur" 'index($0, p) == 1 || /^FILES/' |
			sort | tr '\n' ' ' | sed 's/ $//'
	}
else
	echo "usage: completion.sh bash|zsh" >&2
	exit 2
fi
expect() {
	local name=$1 want=$2
	shift 2
	local got
	got=$(offers "$@")
	[[ $got == "$want" ]] || bad "$shell $name: offered '$got', want '$want'"
}
cd "$t" || exit 1
s=sweep.yaml
expect commands "--help --version check cleanup compare help history import-fio merge plan report run schema slurm store" "$bg" ""
expect command-prefix "report run" "$bg" r
expect run-long-o "--only --output" "$bg" run "$s" --o
expect plan-list "--list-params" "$bg" plan "$s" --li
expect help-topics "io" "$bg" help i
expect format "json" "$bg" plan "$s" --format j
if [[ $shell == bash ]]; then
	expect define-names "profile= runtime= size=" "$bg" run "$s" -D ""
	expect define-before-spec "bs=" "$bg" run -D runtime=1s "$s" --only b
	expect only-value-split "4KiB 64KiB" "$bg" run "$s" --only bs = ""
	expect only-value-split-prefix "64KiB" "$bg" run "$s" --only bs = 6
	expect only-value-eq "4KiB 64KiB" "$bg" run "$s" --only bs =
	expect only-value-nosplit "fs=xfs" "$bg" run "$s" --only fs=x
	expect profile "long quick" "$bg" run "$s" -D profile = ""
	expect spec-files "other.yml sub/ sweep.yaml" "$bg" run ""
	expect report-dirs "sub" "$bg" report ""
else
	expect define-names "profile runtime size" "$bg" run "$s" -D ""
	expect define-before-spec "bs" "$bg" run -D runtime=1s "$s" --only b
	expect only-value "4KiB 64KiB" "$bg" run "$s" --only bs=
	expect only-value-prefix "64KiB" "$bg" run "$s" --only bs=6
	expect profile "long quick" "$bg" run "$s" -D profile=
	expect spec-files "FILES -g *.(yaml|yml)(-.)" "$bg" run ""
	expect report-dirs "FILES -/" "$bg" report ""
	# The real completion system: an interactive zsh on a pseudo-terminal
	# (zsh/zpty) with compinit, typing a line and TAB, then printing the line.
	cat >"$t/pty.zsh" <<'Z'
zmodload zsh/zpty || exit 3
zmodload zsh/datetime
# upto PATTERN: read the terminal's output until it matches (10 s at most).
upto() {
  local chunk deadline=$((EPOCHREALTIME + 10))
  out=
  while [[ $out != $~1 ]] && ((EPOCHREALTIME < deadline)); do
    if zpty -r -t z chunk; then out+=$chunk; else sleep 0.05; fi
  done
  [[ $out == $~1 ]]
}
zpty z "zsh -f -i" || exit 3
zpty -w z "PS1='> '; fpath=($1 \$fpath); autoload -Uz compinit; compinit -u -d $2/.zcd; path=($3 \$path); LISTMAX=1000; cd $2; print RE''ADY"
upto '*READY*' || exit 3
shift 3
for line in "$@"; do
  zpty -w -n z "$line"$'\t'
  zpty -w -n z $'\C-aprint -r -- "LI""NE:\C-e@@"\n'
  upto '*LINE:*@@*' || { print TIMEOUT; continue; }
  print -r -- "${${out##*LINE:}%%@@*}"
done
zpty -d z
Z
	mapfile -t got < <(timeout 60 zsh -f "$t/pty.zsh" "$src/completions" "$t" "$(dirname "$bg")" \
		"benchgrid ru" "benchgrid run $s -D si" "benchgrid run $s --only bs=6" "benchgrid run sw" \
		"benchgrid help pg" "benchgrid plan $s --li" 2>&1)
	# (zle drops the space after a completed word when ^A moves away)
	want=("benchgrid run" "benchgrid run $s -D size=" "benchgrid run $s --only bs=64KiB" "benchgrid run sweep.yaml"
		"benchgrid help pgbench" "benchgrid plan $s --list-params")
	for i in "${!want[@]}"; do
		[[ ${got[i]:-} == "${want[i]}" ]] || bad "zsh (zpty): '${want[i]}' was '${got[i]:-}'"
	done
fi

# Values from a scenario are data: completing them runs nothing (no `compgen
# -W`, which expands $(...) and backticks), and what lands on the command line
# is quoted, so running the completed line runs nothing either.
cat >"$t/hostile.yaml" <<'Y'
name: hostile
vars: {dollar: "$(touch owned-var)"}
matrix:
  cmd: ["$(touch owned-cmd)"]
  tick: ["`touch owned-tick`"]
  semi: ["a;touch owned-semi"]
  quote: ["it's \"q\" $HOME"]
  nl: ["x\n$(touch owned-nl)"]
steps:
  - name: s
    exec: {command: "true"}
Y
h=hostile.yaml
owned() {
	local f
	f=$(ls "$t" | grep owned | tr "\n" " ")
	[[ -z $f ]] || bad "$shell $1: completion ran a command from the scenario (made $f)"
	rm -f "$t"/owned*
}
if [[ $shell == bash ]]; then
	for w in cmd tick semi quote nl; do
		offers "$bg" run "$h" --only "$w=" >/dev/null
		owned "--only $w= (no split)"
		offers "$bg" run "$h" --only "$w" = "" >/dev/null
		owned "--only $w = (split)"
	done
	offers "$bg" run "$h" -D "" >/dev/null
	offers "$bg" run "$h" -D dollar= >/dev/null
	offers "$bg" run "$h" -D dollar = '$' >/dev/null
	owned "-D dollar="
	# The offer is the value, quoted for the shell: the line, once run, passes it as it is.
	for w in cmd tick semi quote; do
		COMP_WORDS=("$bg" run "$h" --only "$w=")
		COMP_CWORD=4 COMPREPLY=()
		_benchgrid
		want=$(awk -F'\t' -v k="$w" '$2 == k { print $3 }' <("$bg" plan "$h" --list-params))
		if ((${#COMPREPLY[@]} != 1)); then
			bad "bash --only $w=: offered ${#COMPREPLY[@]} words: ${COMPREPLY[*]}"
			continue
		fi
		eval "set -- ${COMPREPLY[0]}" # what the shell does with the completed line
		[[ $# == 1 && $1 == "$w=$want" ]] || bad "bash --only $w=: the offer '${COMPREPLY[0]}' reads back as '$*', not '$w=$want'"
		owned "running the completed --only $w="
	done
else
	for w in cmd tick semi quote; do
		offers "$bg" run "$h" --only "$w=" >/dev/null
		owned "--only $w="
	done
	mapfile -t got < <(timeout 60 zsh -f "$t/pty.zsh" "$src/completions" "$t" "$(dirname "$bg")" \
		"benchgrid run $h --only cmd=" "benchgrid run $h --only tick=" "benchgrid run $h --only semi=" \
		"benchgrid run $h -D dollar=" 2>&1)
	for i in 0 1 2 3; do
		[[ ${got[i]:-} == *owned* ]] || bad "zsh (zpty): line $i was not completed: '${got[i]:-}'"
	done
	owned "zsh (zpty)"
fi
((fail == 0)) && echo "completion $shell: all checks passed"
exit $((fail > 0))
