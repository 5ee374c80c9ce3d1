#!/usr/bin/env bash
# valid_output: every output file stays valid text when a command prints
# bytes that are not: invalid UTF-8 (\377\376, a lone surrogate encoded as
# UTF-8, a sequence cut short), NUL bytes and control characters (\001,
# ESC[31m, CR) on stdout and stderr, read by a Lua parser into metric names,
# units, series and info, with a second cell that fails on them. Each file
# is then read by a strict parser: results.json and every journal.jsonl
# line as strict UTF-8 JSON, results.csv and timeseries.csv as strict UTF-8
# RFC 4180 CSV (every row as wide as the header), report.md as strict UTF-8
# without C0 controls other than newline and tab. Stored output tails go on
# past a NUL. `benchgrid report` then rebuilds the reports from results.json
# and they are checked again.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/work"

cat >"$t/s.yaml" <<YAML
benchgrid: 1
name: valid-output
description: "bytes \x01 and \e[31m in a description"
matrix:
  code: [0, 3]
target: {kind: dir, path: $t/work}
steps:
  - name: noisy
    exec:
      command: |
        printf 'out\377\376A\000B\001C\033[31mD\r\n\355\240\200 surrogate \342\202\n'
        printf 'err\377\376E\000F\001G\033[31mH\r\n\355\240\200 surrogate \342\202\n' >&2
        exit \${code}
      parse: grab
hooks: |
  function grab(text, result)
    result:metric("m_" .. text:sub(1, 12), 1, text:sub(4, 9))
    result:sample("s_" .. text:sub(1, 12), text:sub(4, 9), 0, 1)
    result:sample("s_" .. text:sub(1, 12), text:sub(4, 9), 1, 2)
    result:info("k_" .. text:sub(1, 12), text)
  end
YAML

"$bg" run -q -o "$t/out" "$t/s.yaml" >"$t/log" 2>&1
rc=$?
if [[ $rc -ne 1 ]]; then
	echo "FAIL: expected exit 1 (one failed cell), got $rc"
	cat "$t/log"
	exit 1
fi

cat >"$t/check.py" <<'PY'
import csv, io, json, sys

d = sys.argv[1]
fail = []


def check(what, cond):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        fail.append(what)


def text_of(name):
    raw = open(f"{d}/{name}", "rb").read()
    try:
        return raw.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        check(f"{name} is valid UTF-8 ({e})", False)
        return None


def strings(v):
    """Every string (keys included) of a parsed JSON value."""
    if isinstance(v, str):
        yield v
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)
    elif isinstance(v, dict):
        for k, x in v.items():
            yield k
            yield from strings(x)


def strict_json(name, text):
    try:
        v = json.loads(text)  # strict=True: no raw control characters
    except ValueError as e:
        check(f"{name}: valid JSON ({e})", False)
        return None
    for s in strings(v):
        try:
            s.encode("utf-8", errors="strict")  # no "\ud800" escapes
        except UnicodeEncodeError:
            check(f"{name}: a string holds a lone surrogate: {s!r}", False)
            return None
    return v


# ---- results.json ----
res = None
t = text_of("results.json")
if t is not None:
    res = strict_json("results.json", t)
    check("results.json: strict UTF-8 JSON", res is not None)
if res:
    st = sorted(c["status"] for c in res["cells"])
    check(f"results.json: one ok and one failed cell ({st})", st == ["failed", "ok"])
    for c in res["cells"]:
        info = c["reps"][0][0]["info"]
        out, err = info.get("stdout_tail", ""), info.get("stderr_tail", "")
        # NUL replaced, not an end: the tail goes on to the last line.
        check(f"cell {c['index']}: stdout_tail past the NUL ({out!r})",
              "A\ufffdB" in out and "surrogate" in out)
        check(f"cell {c['index']}: stderr_tail past the NUL ({err!r})",
              "E\ufffdF" in err and "surrogate" in err)
        check(f"cell {c['index']}: invalid bytes are U+FFFD",
              out.startswith("out\ufffd\ufffdA") and err.startswith("err\ufffd\ufffdE"))
        check(f"cell {c['index']}: control characters kept (JSON escapes them)",
              "\x01C\x1b[31mD\r\n" in out)
        if c["status"] == "ok":
            keys = [k for k in info if k.startswith("k_")]
            check(f"ok cell: the parser's info key survives ({list(info)})", len(keys) == 1)
            ms = [m for s in c["summary"] for m in s["metrics"] if m.startswith("m_")]
            check(f"ok cell: the parser's metric survives ({ms})", len(ms) == 1)
        else:
            check(f"failed cell: its error quotes stderr past the NUL ({c['error']!r})",
                  "E\ufffdF" in c["error"] and "surrogate" in c["error"])

# ---- journal.jsonl ----
t = text_of("journal.jsonl")
if t is not None:
    lines = [l for l in t.split("\n") if l]
    good = [strict_json(f"journal.jsonl line {i + 1}", l) for i, l in enumerate(lines)]
    check(f"journal.jsonl: {len(lines)} lines of strict UTF-8 JSON",
          len(lines) == 2 and all(g is not None for g in good))

# ---- the CSVs ----
for name in ("results.csv", "timeseries.csv"):
    t = text_of(name)
    if t is None:
        continue
    rows = list(csv.reader(io.StringIO(t, newline=""), strict=True))
    widths = {len(r) for r in rows}
    check(f"{name}: {len(rows)} rows, each as wide as the header ({widths})",
          len(rows) >= 2 and widths == {len(rows[0])})
    bad = [ch for ch in t if (ord(ch) < 0x20 and ch not in "\t\r\n") or ch == "\x7f"]
    check(f"{name}: no control characters but TAB, CR, LF ({bad[:5]})", not bad)
    if name == "results.csv":
        check("results.csv: stderr quoted past the NUL", "E\ufffdF" in t)

# ---- report.md ----
t = text_of("report.md")
if t is not None:
    bad = [ch for ch in t if (ord(ch) < 0x20 and ch not in "\t\n") or ch == "\x7f"]
    check(f"report.md: no control characters but LF and TAB ({bad[:5]})", not bad)
    check("report.md: the failed cell's error past the NUL", "E\ufffdF" in t)

# ---- report.html ----
t = text_of("report.html")
if t is not None:
    bad = [ch for ch in t if (ord(ch) < 0x20 and ch not in "\t\n") or ch == "\x7f"]
    check(f"report.html: no control characters but LF and TAB ({bad[:5]})", not bad)
    check("report.html: the failed cell's error past the NUL", "E\ufffdF" in t)
    check("report.html: one <script>, the page's own", t.count("<script") == 1)

sys.exit(1 if fail else 0)
PY
if ! python3 "$t/check.py" "$t/out"; then
	echo "FAIL: the output files of the run"
	exit 1
fi
if ! "$bg" report "$t/out" >"$t/log" 2>&1; then
	echo "FAIL: benchgrid report"
	cat "$t/log"
	exit 1
fi
if ! python3 "$t/check.py" "$t/out"; then
	echo "FAIL: the output files rebuilt by benchgrid report"
	exit 1
fi
