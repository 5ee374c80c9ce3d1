#!/bin/bash
# report_fence: a failed command whose output has a line of ``` and lines
# starting with # and | (issue 17's review). In report.md each cell's error
# is fenced by more backticks than any run in it, so it stays one code block;
# in report.html both errors are whole <pre> blocks: no heading, no table.
set -euo pipefail
: "${BENCHGRID_BUILD:?}" "${BENCHGRID_SRC:?}" "${BENCHGRID:?}"
D=$(mktemp -d /tmp/bg-report-fence-XXXXXX)
trap 'rm -rf "$D"' EXIT
cat >"$D/s.yaml" <<'Y'
benchgrid: 1
name: fence
matrix:
  n: [1, 2]
steps:
  - name: e
    exec: "printf 'x\n```\n# h\n| a | b |\n'; exit 3"
Y
mkdir -p "$D/w"
# Both cells fail (exit 3), so the run exits 1 (docs/results.md), with the
# reports written; any other status (0, a crash, 2) is a failure here.
rc=0
"$BENCHGRID" run -q --work-dir "$D/w" -o "$D/r" "$D/s.yaml" >"$D/out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { echo "FAIL: run exited $rc, expected 1 (failed cells): $(tail -5 "$D/out")"; exit 1; }
[ -s "$D/r/report.md" ] && [ -s "$D/r/report.html" ] || { echo "no report: $(ls "$D/r")"; exit 1; }
/usr/bin/python3 - "$D/r/report.md" "$D/r/report.html" <<'PY'
import html.parser, re, sys
md = open(sys.argv[1]).read()
failed = md.split("## Failed cells\n", 1)[1].split("\n## ", 1)[0]
# CommonMark: a fence closes on a line of at least as many backticks.
blocks, opened = [], None
for line in failed.splitlines():
    m = re.fullmatch(r" {0,3}(`{3,})\s*", line)
    if opened is None and m:
        opened, body = len(m.group(1)), []
    elif opened is not None and m and len(m.group(1)) >= opened:
        blocks.append(body); opened = None
    elif opened is not None:
        body.append(line.strip())
assert opened is None, "report.md: a fence left open:\n" + failed
assert len(blocks) == 2, "report.md: %d code blocks, expected 2:\n%s" % (len(blocks), failed)
for b in blocks:  # the command's output, after the command line
    assert "\nx\n```\n# h\n| a | b |\n" in "\n".join(b), b
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.tags = []; self.pre = []; self.inpre = False
    def handle_starttag(self, tag, a):
        self.tags.append(tag)
        if tag == "pre": self.inpre = True; self.pre.append("")
    def handle_endtag(self, tag):
        if tag == "pre": self.inpre = False
    def handle_data(self, d):
        if self.inpre: self.pre[-1] += d
page = open(sys.argv[2]).read()
tail = page.split('id="s-failed-cells"', 1)[1].split("<h2", 1)[0]
p = P(); p.feed(tail)
assert "table" not in p.tags, "report.html: a table in Failed cells"
assert [t for t in p.tags if t in ("h1", "h2", "h3", "h4", "h5", "h6")] == [], p.tags
assert len(p.pre) == 2, p.pre
for t in p.pre:
    assert "\nx\n```\n# h\n| a | b |\n" in t, repr(t)
print("report_fence: ok")
PY
