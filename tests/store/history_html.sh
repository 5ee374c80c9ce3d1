#!/usr/bin/env bash
# history_html.sh: `benchgrid history`'s dashboard (history.html) and its
# options, from a real SQLite store of real runs: five runs of a 2-cell io
# scenario on a dir target, each I/O rate capped (rate_iops 1000), the
# fifth capped at 500, i.e. made 2x slower. Checked from the page's text:
# a chart per cell of w.iops with one point per run, the fifth run of each
# cell flagged LOW (slower) in the Regressions table, every run linked to
# its report.html by a relative path that resolves, a removed run folder
# shown as gone (no link), the page replaced whole and never written
# through a planted symbolic link; `--by commit` on runs that record
# commits A, B, A (a day apart) in the order A, A, B in the text and on the
# page's x axis; `--list` with its cells; stored markup escaped on the
# page; the text of `history NAME` as before.
set -u
bg=${BENCHGRID:?}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# shellcheck source=tests/store/store_lib.sh
source "${BENCHGRID_SRC:?}/tests/store/store_lib.sh"
export BENCHGRID_STORE=$t/h.db BENCHGRID_STATE=$t/state
PY=/usr/bin/python3
mkdir -p "$t/w" "$t/site"

cat >"$t/s.yaml" <<'Y'
benchgrid: 1
name: hist-io
matrix:
  file: [a.dat, b.dat]
target: {kind: dir}
vars:
  rate: 1000
steps:
  - name: w
    io: {rw: randwrite, file: "${file}", size: 1MiB, io_size: 512KiB, rate_iops: "${rate}"}
Y
for i in 1 2 3 4; do
	check "run-$i" 0 '' -- "$bg" run -q --work-dir "$t/w" -o "$t/r$i" "$t/s.yaml"
done
check run-slow 0 '' -- "$bg" run -q --work-dir "$t/w" -o "$t/r5" -D rate=500 "$t/s.yaml"

# The text as before: the slow run of each cell flagged.
check text-flags 0 'LOW \(slower\): run of .* cell file=b\.dat' -- "$bg" history hist-io
# (the slow run's rows: a run before it may be flagged too, the rate cap
# making the runs very alike)
same text-low-rows "$("$bg" history hist-io | grep -cE ' (49|50)[0-9]\.[0-9]+  LOW: outside')" 2
check list-cells 0 '^file=b\.dat +[^ ]+ +5$' -- "$bg" history hist-io --list
check list-metrics 0 '^w\.iops +IOPS$' -- "$bg" history hist-io --list
check list-scenarios 0 '^hist-io +5  ' -- "$bg" history --list
check by-bad 2 '--by expects date or commit' -- "$bg" history --by size

# The page of every scenario, history.html in the current folder.
check page 0 'wrote history\.html \([0-9]+ charts, [0-9]+ flagged' -- \
	bash -c 'cd "$1" && "$2" history' _ "$t/site" "$bg"
# page_facts PAGE: one line per fact the checks compare.
page_facts() {
	"$PY" - "$1" <<'PY'
import html.parser, os, re, sys
page = sys.argv[1]
text = open(page, encoding='utf-8').read()
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.fig = None; self.series = None; self.figs = []; self.rows = []
        self.row = None; self.cell = None; self.hrefs = []; self.table = None; self.cats = []; self.intext = False
    def handle_starttag(self, tag, a):
        a = dict(a)
        if tag == 'figure' and 'chart' in a.get('class', ''):
            self.fig = {'caption': '', 'points': {}, 'cats': []}; self.figs.append(self.fig)
        if tag == 'g' and a.get('class') == 'series' and self.fig is not None:
            self.series = a['data-label']; self.fig['points'][self.series] = 0
        if tag == 'circle' and self.series is not None:
            self.fig['points'][self.series] += 1
        if tag == 'g' and a.get('class', '').startswith('axis x'):
            self.intext = True
        if tag == 'table':
            self.table = a.get('id')
        if tag == 'tr' and self.table == 't-regressions':
            self.row = []
        if tag in ('td', 'th') and self.row is not None:
            self.cell = ''
        if tag == 'a' and 'href' in a and not a['href'].startswith('#'):
            self.hrefs.append(a['href'])
    def handle_endtag(self, tag):
        if tag == 'g':
            self.series = None; self.intext = False
        if tag == 'figure':
            self.fig = None
        if tag in ('td', 'th') and self.row is not None:
            self.row.append(self.cell.strip()); self.cell = None
        if tag == 'tr' and self.row is not None:
            if self.row and self.row[0] != 'scenario':
                self.rows.append(self.row)
            self.row = None
    def handle_data(self, d):
        if self.cell is not None:
            self.cell += d
        if self.intext and self.fig is not None and d.strip():
            self.fig['cats'].append(d.strip())
p = P(); p.feed(text)
print('scripts %d' % text.count('<script'))
print('csp %s' % ('yes' if "default-src 'none'" in text else 'no'))
for i, f in enumerate(p.figs):
    print('chart %d value-points %d flagged %d x %s' % (i, f['points'].get('value', 0), f['points'].get('flagged', 0), ','.join(f['cats'])))
for r in p.rows:
    print('regression %s' % ' | '.join(r[:4] + [r[5].split('.')[0]] + r[8:9]))
base = os.path.dirname(os.path.abspath(page))
ok = sum(os.path.isfile(os.path.join(base, h)) for h in p.hrefs)
print('links %d resolve %d' % (len(p.hrefs), ok))
print('gone %d' % text.count('run folder gone'))
PY
}
f=$(page_facts "$t/site/history.html")
echo "$f" | sed 's/^/  page: /'
same page-one-script "$(grep -c '^scripts 1$' <<<"$f")" 1
same page-csp "$(grep -c '^csp yes$' <<<"$f")" 1
# w.iops and w.lat_p99_us of each cell: 4 charts, 5 points each
same page-charts "$(grep -c '^chart [0-9]* value-points 5 ' <<<"$f")" 4
same page-iops-flagged "$(grep -cE '^regression hist-io \| file=[ab]\.dat \| w\.iops \(IOPS\) \| .* \| (49|50)[0-9] \| LOW \(slower\)$' <<<"$f")" 2
# every flagged point of the charts is a row of the Regressions table
same page-flagged-points "$(grep -E '^chart' <<<"$f" | awk '{n += $6} END {print n}')" "$(grep -c '^regression ' <<<"$f")"
# a link per run of each chart, and one per row of the Regressions table
nreg=$(grep -c '^regression ' <<<"$f")
same page-links "$(grep '^links ' <<<"$f")" "links $((20 + nreg)) resolve $((20 + nreg))"
same page-links-relative "$(grep -o 'href="[^"#][^"]*"' "$t/site/history.html" | grep -vc 'href="\.\./r[1-5]/report\.html"')" 0

# A run folder removed: its runs are shown as gone, not linked.
rm -rf "$t/r2"
check page-again 0 'wrote .*h2\.html' -- "$bg" history --html "$t/site/h2.html"
f=$(page_facts "$t/site/h2.html")
same page-gone "$(grep -c '^gone 4$' <<<"$f")" 1
nreg=$(grep -c '^regression ' <<<"$f")
same page-gone-links "$(grep '^links ' <<<"$f")" "links $((16 + nreg)) resolve $((16 + nreg))"

# A report.html that is a symbolic link (here to a file outside the run)
# is not linked to: the run says it has no report.
mv "$t/r3/report.html" "$t/r3/report.real"
ln -s "$t/victim-report" "$t/r3/report.html"
echo secret >"$t/victim-report"
check page-report-link 0 'wrote .*h3\.html' -- "$bg" history --html "$t/site/h3.html"
same page-report-link-href "$(grep -c 'victim-report\|r3/report\.html' "$t/site/h3.html")" 0
same page-report-link-said "$(grep -c 'no report.html in the run folder' "$t/site/h3.html")" 4 # its row in each of the 4 charts' run tables
rm "$t/r3/report.html" && mv "$t/r3/report.real" "$t/r3/report.html"

# The page is replaced whole, never written through a planted link.
echo keep >"$t/victim"
ln -s "$t/victim" "$t/site/link.html"
check page-link 0 'wrote' -- "$bg" history hist-io --html "$t/site/link.html"
same page-link-target "$(cat "$t/victim")" keep
same page-link-replaced "$([ -f "$t/site/link.html" ] && [ ! -L "$t/site/link.html" ] && echo file)" file
check page-no-dir 1 'cannot write' -- "$bg" history --html "$t/nowhere/x.html"
check page-no-name 2 '--html expects a file name' -- "$bg" history --html "$t/site/"

# Stored strings are escaped: a scenario and a cell named with markup.
printf 'name: "esc <b>bold</b> & \\"q\\""\nmatrix:\n  v: ["<img src=x onerror=alert(1)>"]\nsteps:\n  - name: s\n    exec: {command: "true"}\n' >"$t/esc.yaml"
check esc-run 0 '' -- "$bg" run -q -o "$t/esc" "$t/esc.yaml"
check esc-page 0 'wrote' -- "$bg" history --html "$t/site/esc.html"
same esc-no-markup "$(grep -c '<b>bold\|<img src=x' "$t/site/esc.html")" 0
same esc-escaped "$(grep -q 'esc &lt;b&gt;bold&lt;/b&gt; &amp;' "$t/site/esc.html" && echo yes)" yes
same esc-cell "$(grep -q 'v=&lt;img src=x onerror=alert(1)&gt;' "$t/site/esc.html" && echo yes)" yes

# --by commit: runs recording commits A, B, A a day apart (results.json
# rewritten, stored into a store of their own).
"$PY" - "$t" <<'PY' || echo "FAIL cannot make the commit series"
import json, os, sys
t = sys.argv[1]
for i, c in enumerate(['aaaa1111', 'bbbb2222', 'aaaa1111']):
    r = json.load(open(f'{t}/r{i + 3 if i else 1}/results.json'))
    r['started'] = 1780000000.5 + i * 86400
    r['finished'] = r['started'] + 60
    r['build']['commit'] = c
    os.makedirs(f'{t}/c{i}')
    json.dump(r, open(f'{t}/c{i}/results.json', 'w'))
PY
check store-commits 0 '' -- "$bg" store --store "$t/c.db" "$t/c0" "$t/c1" "$t/c2"
dates() { "$bg" history hist-io --store "$t/c.db" "$@" | awk '/file=a\.dat/ {print substr($1, 6)}' | paste -sd' '; }
d0=$(date -d @1780000000 +%m-%d) d1=$(date -d @1780086400 +%m-%d) d2=$(date -d @1780172800 +%m-%d)
same by-date "$(dates --by date)" "$d0 $d1 $d2"
same by-commit "$(dates --by commit)" "$d0 $d2 $d1"
check by-commit-line 0 '^by commit: aaaa1111 \(2 runs\) bbbb2222 \(1 run\)$' -- \
	"$bg" history hist-io --store "$t/c.db" --by commit
check by-commit-page 0 'wrote' -- "$bg" history --store "$t/c.db" --by commit --html "$t/site/c.html"
f=$(page_facts "$t/site/c.html")
same by-commit-axis "$(grep -c '^chart [0-9]* value-points 3 flagged 0 x aaaa1111,aaaa1111,bbbb2222$' <<<"$f")" 4
finish
