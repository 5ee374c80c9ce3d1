#!/usr/bin/env bash
# The output directory: symlinks planted in it are never written through
# (results.json.tmp, plan.tsv.tmp, journal.jsonl, cells, a cell's folder, the
# reports' .tmp files), an existing directory owned by someone else or
# writable by others is refused, --resume on a missing directory is refused,
# and every output-directory error exits 2.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state
mkdir -p "$t/w"
W=(--work-dir "$t/w")
fail=0 pass=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }

cat >"$t/s.yaml" <<'Y'
name: outdir-links
matrix:
  x: [1, 2]
steps:
  - name: probe
    exec: {command: "echo bytes ${x}"}
Y
printf 'precious\n' >"$t/victim"
victim_same() { [[ "$(cat "$t/victim")" == precious ]] && [[ ! -L "$t/victim" ]]; }
# The cell ids, from the plan.
mapfile -t ids < <("$bg" plan --format json "$t/s.yaml" |
	python3 -c 'import json,sys; print("\n".join(c["id"] for c in json.load(sys.stdin)))')
[[ ${#ids[@]} -eq 2 ]] || { echo "FAIL cannot read the cell ids"; exit 1; }

# A fresh run into an existing (empty, ours, 0755) directory holding one link:
# the run is unaffected (or refuses) and the link's target is untouched.
plant() { # NAME [dir]: a link NAME -> victim in a new output directory
	rm -rf "$t/o"
	mkdir -m 0755 "$t/o"
	mkdir -p "$(dirname "$t/o/$1")"
	ln -s "${2:-$t/victim}" "$t/o/$1"
}
for name in results.json.tmp plan.tsv.tmp results.csv.tmp report.md.tmp timeseries.csv.tmp \
	scenario.yaml.tmp results.json plan.tsv results.csv report.html report.html.tmp; do
	plant "$name"
	"$bg" run "${W[@]}" -q -o "$t/o" "$t/s.yaml" >"$t/out" 2>&1
	rc=$?
	if victim_same && { [[ $rc -eq 0 ]] || [[ $rc -eq 2 ]]; }; then
		ok "planted $name: target untouched (exit $rc)"
	else
		bad "planted $name: exit $rc, victim now: $(head -c 80 "$t/victim")"
		cat "$t/out"
		printf 'precious\n' >"$t/victim"
	fi
	ls "$t/o" | grep -q '\.tmp' && ls "$t/o" | grep -v "^$name\$" | grep -q '\.tmp' &&
		bad "planted $name: leftover tmp files: $(ls "$t/o")"
done

# journal.jsonl: a fresh run refuses (it looks like an earlier run), a
# resume refuses to follow it.
plant journal.jsonl
"$bg" run "${W[@]}" -q -o "$t/o" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
victim_same && [[ $rc -eq 2 ]] && ok "planted journal.jsonl: refused (exit 2)" ||
	{ bad "planted journal.jsonl: exit $rc"; cat "$t/out"; printf 'precious\n' >"$t/victim"; }
"$bg" run "${W[@]}" -q --resume "$t/o" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
victim_same && [[ $rc -eq 2 ]] && grep -q 'journal.jsonl' "$t/out" &&
	ok "planted journal.jsonl, --resume: refused (exit 2)" ||
	{ bad "planted journal.jsonl, --resume: exit $rc"; cat "$t/out"; printf 'precious\n' >"$t/victim"; }

# cells -> a directory outside: nothing is created there.
mkdir -p "$t/elsewhere"
plant cells "$t/elsewhere"
"$bg" run "${W[@]}" -q -o "$t/o" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
[[ -z "$(ls -A "$t/elsewhere")" ]] && [[ $rc -eq 2 ]] && grep -q 'cells' "$t/out" &&
	ok "planted cells link: refused (exit 2), nothing written through it" ||
	{ bad "planted cells link: exit $rc, elsewhere: $(ls "$t/elsewhere")"; cat "$t/out"; }
rm -rf "$t/elsewhere"/*

# cells/ID -> a directory outside: the cell fails, nothing written there.
plant "cells/${ids[0]}" "$t/elsewhere"
"$bg" run "${W[@]}" -q -o "$t/o" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
[[ -z "$(ls -A "$t/elsewhere")" ]] && [[ $rc -eq 1 ]] &&
	python3 - "$t/o" "${ids[0]}" <<'PY' && ok "planted cells/ID link: that cell fails, nothing written through it" ||
import json, sys
r = json.load(open(sys.argv[1] + "/results.json"))
c = {c["id"]: c for c in r["cells"]}
bad = c[sys.argv[2]]
assert bad["status"] == "failed" and "cells/" in bad["error"], bad
assert [x["status"] for x in c.values() if x["id"] != sys.argv[2]] == ["ok"]
PY
	{ bad "planted cells/ID link: exit $rc, elsewhere: $(ls "$t/elsewhere")"; cat "$t/out"; }

# cells/ID/probe.stdout -> the victim (an exec step's saved output): replaced,
# never written through.
plant "cells/${ids[0]}/probe.stdout"
"$bg" run "${W[@]}" -q -o "$t/o" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
victim_same && [[ $rc -eq 0 ]] && [[ -f "$t/o/cells/${ids[0]}/probe.stdout" && ! -L "$t/o/cells/${ids[0]}/probe.stdout" ]] &&
	ok "planted cells/ID/probe.stdout: replaced, target untouched" ||
	{ bad "planted cells/ID/probe.stdout: exit $rc, victim now: $(head -c 80 "$t/victim")"; cat "$t/out"; printf 'precious\n' >"$t/victim"; }

# An existing output directory writable by others, or owned by another user.
rm -rf "$t/o" && mkdir -m 0777 "$t/o"
"$bg" run "${W[@]}" -q -o "$t/o" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
[[ $rc -eq 2 ]] && grep -q 'writable' "$t/out" && [[ ! -e "$t/o/journal.jsonl" ]] &&
	ok "world-writable output directory refused (exit 2)" ||
	{ bad "world-writable output directory: exit $rc"; cat "$t/out"; }
if [[ $(id -u) -eq 0 ]]; then
	rm -rf "$t/o" && mkdir -m 0755 "$t/o" && chown nobody "$t/o"
	"$bg" run "${W[@]}" -q -o "$t/o" "$t/s.yaml" >"$t/out" 2>&1
	rc=$?
	[[ $rc -eq 2 ]] && grep -q 'owned by' "$t/out" && [[ ! -e "$t/o/journal.jsonl" ]] &&
		ok "output directory of another user refused (exit 2)" ||
		{ bad "output directory of another user: exit $rc"; cat "$t/out"; }
	rm -rf "$t/o" && mkdir -p "$t/o/cells" && chown nobody "$t/o/cells"
	"$bg" run "${W[@]}" -q -o "$t/o" "$t/s.yaml" >"$t/out" 2>&1
	rc=$?
	[[ $rc -eq 2 ]] && grep -q 'owned by' "$t/out" && ok "cells folder of another user refused (exit 2)" ||
		{ bad "cells folder of another user: exit $rc"; cat "$t/out"; }
else
	echo "skip owner checks (not root)"
fi

# The output directory itself a symlink: refused.
rm -rf "$t/o" "$t/real" && mkdir "$t/real" && ln -s "$t/real" "$t/o"
"$bg" run "${W[@]}" -q -o "$t/o" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
[[ $rc -eq 2 ]] && [[ -z "$(ls -A "$t/real")" ]] && ok "output directory that is a symlink refused (exit 2)" ||
	{ bad "output directory symlink: exit $rc"; cat "$t/out"; }
rm -f "$t/o"

# --resume on a missing directory: refused, nothing created.
"$bg" run "${W[@]}" -q --resume "$t/missing" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
[[ $rc -eq 2 ]] && [[ ! -e "$t/missing" ]] && grep -q 'missing' "$t/out" &&
	ok "--resume on a missing directory refused (exit 2)" ||
	{ bad "--resume on a missing directory: exit $rc"; cat "$t/out"; }

# Output-directory errors all exit 2: cannot create it (a file is in the way).
: >"$t/file"
"$bg" run "${W[@]}" -q -o "$t/file/sub" "$t/s.yaml" >"$t/out" 2>&1
rc=$?
[[ $rc -eq 2 ]] && ok "cannot create the output directory: exit 2" ||
	{ bad "cannot create the output directory: exit $rc"; cat "$t/out"; }

# A normal run and a resume still work, and leave no temporary files.
rm -rf "$t/o"
"$bg" run "${W[@]}" -q -o "$t/o" "$t/s.yaml" >"$t/out" 2>&1 && "$bg" run "${W[@]}" -q --resume "$t/o" "$t/s.yaml" >>"$t/out" 2>&1 &&
	[[ -z "$(find "$t/o" -name '*.tmp' -o -name '.*.tmp*')" ]] && [[ -s "$t/o/results.json" ]] &&
	ok "normal run and resume, no temporary files left" || { bad "normal run"; cat "$t/out"; ls -la "$t/o"; }

victim_same || bad "the victim file changed"
echo "$pass passed, $fail failed"
[[ $fail -eq 0 ]]
