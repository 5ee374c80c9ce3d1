#!/usr/bin/python3
"""regen_check: the report files of one run folder, as `benchgrid report`
wrote them (scripts/regen-reports, tests/reporters/regen_stored.sh):

  regen_check.py DIR [DIR...]

report.md:
  - every chart it links (chart-N.svg) exists and has marks: a line of >= 2
    points, a bar or histogram bar of non-zero size, or heatmap cells; no
    nan or inf in an attribute; its legend's last line inside the image;
  - no note of a `report:` entry that did not resolve ("invalid chart
    skipped", "no cell matches", "no time series", "no values of", "no value
    of", "no latency distribution", "is not a latency metric"); a facet
    whose cells did not run is a note "nothing to draw" (skipped, failed),
    not an empty chart, and passes;
  - every `report:` pivot has its table (a heading naming its value) and
    there are at least as many charts as `report:` charts;
  - with no `report:` block, a default chart when a parameter varies;
  - a Headline section with one row per ok cell, before the step tables;
  - the step tables grouped: each table under Steps has at most 12 metric
    columns, and each group is named (**Throughput and latency** ...).
report.html:
  - every <figure class="chart"> holds one <svg> with a series that has
    marks as above; as many figures as report.md's charts;
  - the same notes absent.
Prints one line per folder (ok, or each problem); exit 1 on any problem.
"""
import html.parser
import json
import os
import re
import sys

NOTES = ('invalid chart skipped', 'invalid pivot skipped', 'no cell matches', 'no time series',
         'no values of', 'no value of', 'no latency distribution', 'is not a latency metric')
MAX_METRIC_COLS = 12


class Marks(html.parser.HTMLParser):
    """Charts (<svg> elements) and their marks."""

    def __init__(self):
        super().__init__()
        self.charts = []  # per svg: dict
        self.cur = None
        self.depth = 0
        self.legend = False
        self.legend_y = 0.0

    def handle_starttag(self, tag, a):
        a = dict(a)
        cls = (a.get('class') or '').split()
        if tag == 'svg':
            self.cur = {'h': float(a.get('height') or 0), 'lines': 0, 'bars': 0, 'cells': 0, 'series': 0,
                        'bad': [], 'legend_bottom': 0.0}
            self.charts.append(self.cur)
        if self.cur is None:
            return
        for k, v in a.items():
            if v and re.search(r'(^|[^a-z])(nan|inf)([^a-z]|$)', v) and k not in ('class', 'data-label'):
                self.cur['bad'].append('%s="%s"' % (k, v))
        if tag == 'g' and 'series' in cls:
            self.cur['series'] += 1
        if tag == 'g' and 'legend' in cls:
            self.legend = True
        if tag == 'polyline' and len((a.get('points') or '').split()) >= 2:
            self.cur['lines'] += 1
        # a series of one sample is drawn as a point (a step shorter than
        # two sampling intervals): a mark too
        if tag == 'circle' and 'point' in cls and float(a.get('r') or 0) > 0:
            self.cur['lines'] += 1
        if tag == 'rect' and ('bar' in cls or 'hbar' in cls or 'cell' in cls):
            if float(a.get('width') or 0) > 0 and float(a.get('height') or 0) > 0:
                self.cur['cells' if 'cell' in cls else 'bars'] += 1
        if self.legend and tag == 'text':
            self.legend_y = float(a.get('y') or 0)
            self.cur['legend_bottom'] = max(self.cur['legend_bottom'], self.legend_y)
        if self.legend and tag == 'tspan':
            self.legend_y += float(a.get('dy') or 0)
            self.cur['legend_bottom'] = max(self.cur['legend_bottom'], self.legend_y)

    def handle_endtag(self, tag):
        if tag == 'g':
            self.legend = False
        if tag == 'svg':
            self.cur = None


def chart_problems(c, what):
    bad = ['%s: %s' % (what, b) for b in c['bad'][:3]]
    if not (c['lines'] or c['bars'] or c['cells']):
        bad.append('%s: no marks (%d series)' % (what, c['series']))
    if c['legend_bottom'] and c['legend_bottom'] + 4 > c['h']:
        bad.append('%s: legend ends at %g, below the image (%g)' % (what, c['legend_bottom'], c['h']))
    return bad


def table_after(lines, i):
    """The header cells of the first table at or after line i."""
    for k in range(i, min(i + 4, len(lines))):
        if lines[k].startswith('|'):
            return [x.strip() for x in lines[k].strip().strip('|').split('|')]
    return None


def check(d):
    bad = []
    md_path = os.path.join(d, 'report.md')
    if not os.path.isfile(md_path):
        return ['no report.md']
    md = open(md_path, encoding='utf-8').read()
    run = json.load(open(os.path.join(d, 'results.json'), encoding='utf-8'))
    cfg = run.get('report') or {}
    for n in NOTES:
        for m in re.finditer(r'\*\([^\n]*' + re.escape(n) + r'[^\n]*\)\*', md):
            bad.append('report.md: %s' % m.group(0)[:160])
    # charts of report.md
    files = re.findall(r'\]\((chart-[0-9]+\.svg)\)', md)
    for f in files:
        p = os.path.join(d, f)
        if not os.path.isfile(p):
            bad.append('report.md links %s, which is missing' % f)
            continue
        mk = Marks()
        mk.feed(open(p, encoding='utf-8').read())
        if len(mk.charts) != 1:
            bad.append('%s: %d <svg> elements' % (f, len(mk.charts)))
        for c in mk.charts:
            bad += chart_problems(c, f)
    # report: entries
    pivots = cfg.get('pivot') or []
    pivots = pivots if isinstance(pivots, list) else [pivots]
    for p in pivots:
        v = p.get('value', '') if isinstance(p, dict) else ''
        name = p.get('title') or v if isinstance(p, dict) else v
        plain = re.sub(r'\\(.)', r'\1', md)  # Markdown's escapes (\*, \\) undone
        if v and not re.search(r'^#+ .*' + re.escape(name), plain, re.M):
            bad.append('report.md: no pivot table of %s' % v)
    if not cfg:  # no report: block: a default pivot and chart per varying parameter
        values = {}
        for c in run['cells']:
            if c.get('status') == 'ok':
                for k, v in (c.get('params') or {}).items():
                    values.setdefault(k, set()).add(str(v))
        varying = [k for k, v in values.items() if len(v) >= 2]
        if varying and not files:
            bad.append('report.md: no report: block, %s vary, and no default chart' % ', '.join(varying))
    charts = cfg.get('charts') or []
    charts = charts if isinstance(charts, list) else [charts]
    if len(files) < len(charts):
        bad.append('report.md: %d charts for %d report.charts entries' % (len(files), len(charts)))
    # the headline table, before the steps
    lines = md.split('\n')
    ok_cells = sum(1 for c in run['cells'] if c.get('status') == 'ok')
    if ok_cells:
        try:
            h = lines.index('## Headline')
        except ValueError:
            h = -1
            bad.append('report.md: no Headline section')
        if h >= 0:
            k = h + 1
            while k < len(lines) and not lines[k].startswith('|'):
                k += 1
            rows = 0
            while k < len(lines) and lines[k].startswith('|'):
                rows += 1
                k += 1
            if rows - 2 < ok_cells:
                bad.append('report.md: Headline table of %d rows for %d ok cells' % (rows - 2, ok_cells))
            if '## Steps' in lines and lines.index('## Steps') < h:
                bad.append('report.md: the Headline comes after the step tables')
    # the step tables, grouped
    params = set()
    for c in run['cells']:
        params |= set((c.get('params') or {}).keys())
    if '## Steps' in lines:
        s = lines.index('## Steps')
        end = next((i for i in range(s + 1, len(lines)) if lines[i].startswith('## ')), len(lines))
        for i in range(s, end):
            if lines[i].startswith('**') and lines[i].endswith('**'):
                heads = table_after(lines, i + 1)
                if heads is None:
                    bad.append('report.md: group %s without a table' % lines[i])
                    continue
                metrics = [x for x in heads if x not in ('#', 'status') and x not in params]
                if len(metrics) > MAX_METRIC_COLS:
                    bad.append('report.md: group %s has %d metric columns (at most %d)' %
                               (lines[i], len(metrics), MAX_METRIC_COLS))
            if lines[i].startswith('### Step ') and not any(
                    lines[k].startswith('**') for k in range(i + 1, min(i + 4, end))):
                bad.append('report.md: %s has no named group' % lines[i])
    # report.html
    hp = os.path.join(d, 'report.html')
    if not os.path.isfile(hp):
        bad.append('no report.html')
    else:
        page = open(hp, encoding='utf-8').read()
        for n in NOTES:
            if n in page:
                bad.append('report.html: a note "%s"' % n)
        figs = re.findall(r'<figure class="chart"[^>]*>(.*?)</figure>', page, re.S)
        for i, f in enumerate(figs, 1):
            mk = Marks()
            mk.feed(f)
            if not mk.charts:
                bad.append('report.html figure %d: no <svg>' % i)
            for c in mk.charts:
                bad += chart_problems(c, 'report.html figure %d' % i)
        nsvg = sum(len(re.findall(r'<svg[ >]', f)) for f in figs)
        if nsvg < len(files):
            bad.append('report.html: %d charts, report.md %d' % (nsvg, len(files)))
    return bad


def main():
    fail = 0
    for d in sys.argv[1:]:
        name = os.path.basename(os.path.normpath(d))
        try:
            bad = check(d)
        except Exception as e:  # a broken file is a finding, not a crash
            bad = ['cannot check: %r' % e]
        if bad:
            fail = 1
            for b in bad:
                print('FAIL %s: %s' % (name, b))
        else:
            md = open(os.path.join(d, 'report.md'), encoding='utf-8').read()
            print('ok   %s: %d charts, %d tables' % (name, len(re.findall(r'\]\(chart-[0-9]+\.svg\)', md)),
                                                      md.count('\n|---')))
    return fail


if __name__ == '__main__':
    sys.exit(main())
