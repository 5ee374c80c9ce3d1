#!/usr/bin/env python3
"""Check the report files of the crafted fixture run (report_driver fixture).

Usage: report_check.py DIR COMPARE_MD
Reads DIR/results.csv and DIR/timeseries.csv with the csv module, parses the
Markdown tables of DIR/report.md and COMPARE_MD, and the SVG charts with
xml.etree; exits non-zero with a message on the first mismatch.
"""
import csv
import json
import os
import re
import statistics
import sys
import xml.etree.ElementTree as ET

NOTE = 'a, "quoted"\nsecond line'
SVG = '{http://www.w3.org/2000/svg}'
failures = 0


def check(cond, msg):
    global failures
    if not cond:
        failures += 1
        print('FAIL:', msg, file=sys.stderr)
    return cond


def split_row(line):
    """Cells of a Markdown table row; '\\|' is a literal bar."""
    assert line.startswith('|') and line.endswith('|'), line
    cells, cur, i = [], '', 1
    while i < len(line) - 1:
        if line[i] == '\\' and line[i + 1] == '|':
            cur += '|'
            i += 2
            continue
        if line[i] == '|':
            cells.append(cur.strip())
            cur = ''
        else:
            cur += line[i]
        i += 1
    cells.append(cur.strip())
    return cells


def md_tables(text):
    """[(heading, header, rows)] for every table; checks the table shape."""
    tables, heading, lines = [], None, text.split('\n')
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('#'):
            heading = line.lstrip('#').strip()
        if line.startswith('|') and i + 1 < len(lines) and re.fullmatch(r'\|(---\|)+', lines[i + 1]):
            header = split_row(line)
            check(len(split_row(lines[i + 1])) == len(header), 'separator width under ' + str(heading))
            rows = []
            i += 2
            while i < len(lines) and lines[i].startswith('|'):
                row = split_row(lines[i])
                check(len(row) == len(header), 'row width %d != %d under %s: %s' % (len(row), len(header), heading, lines[i]))
                rows.append(row)
                i += 1
            tables.append((heading, header, rows))
            continue
        i += 1
    return tables


def table(tables, heading):
    found = [t for t in tables if t[0] == heading]
    check(len(found) == 1, 'one table under %r (found %d)' % (heading, len(found)))
    return found[0] if found else (heading, [], [])


def check_csv(d):
    with open(os.path.join(d, 'results.csv'), newline='') as f:
        rows = list(csv.reader(f))
    metrics = ['mb_s', 'iops', 'tps', 'lat_avg']
    stats = ['n', 'stddev', 'median', 'min', 'max', 'cv']
    want = ['index', 'id', 'fs', 'fs_block', 'note', 'step', 'status'] + metrics + \
        ['%s_%s' % (m, s) for m in metrics for s in stats] + ['error']
    check(rows[0] == want, 'results.csv header %r' % rows[0])
    body = [dict(zip(rows[0], r)) for r in rows[1:]]
    check(all(len(r) == len(want) for r in rows), 'every row has every column')
    check(len(body) == 8, 'results.csv has 8 rows (4 cells x 2 steps), got %d' % len(body))
    check(all(r['note'] == NOTE for r in body), 'note with comma, quotes and newline reads back')
    r = [x for x in body if x['index'] == '0' and x['step'] == 'ro'][0]
    check(float(r['tps']) == 834 and r['tps_n'] == '3' and float(r['tps_median']) == 1000, 'cell 0 ro.tps stats %r' % r)
    check(float(r['tps_stddev']) == statistics.stdev([500, 1000, 1002]), 'cell 0 ro.tps stddev %s' % r['tps_stddev'])
    check(r['mb_s'] == '' and r['status'] == 'ok' and r['error'] == '', 'ro row has no mb_s')
    r = [x for x in body if x['index'] == '3' and x['step'] == 'ro'][0]
    check(r['status'] == 'failed' and r['tps'] == '', 'failed step row %r' % r)
    check('connection to server lost\nserver log' in r['error'], 'multi-line error reads back')
    r = [x for x in body if x['index'] == '3' and x['step'] == 'seqwrite'][0]
    check(r['mb_s'] == '400' and r['mb_s_n'] == '1' and r['status'] == 'ok', 'single sample %r' % r)

    with open(os.path.join(d, 'timeseries.csv'), newline='') as f:
        ts = list(csv.reader(f))
    check(ts[0] == ['index', 'id', 'repeat', 'step', 't', 'mb_s', 'tps', 'lat_ms'], 'timeseries header %r' % ts[0])
    check(len(ts) - 1 == 3 * 3 * 15 + 5 + 3, 'timeseries rows: %d' % (len(ts) - 1))
    row = [x for x in ts[1:] if x[0] == '1' and x[2] == '2' and x[3] == 'ro' and x[4] == '4']
    check(len(row) == 1 and row[0][5] == '' and float(row[0][6]) == 2014, 'cell 1 rep 2 ro t=4: %r' % row)


def check_md(d):
    text = open(os.path.join(d, 'report.md')).read()
    check(text.startswith('# fs-blocksize\n\n**Notes**\n\n'
                          '- Approximated: the disks are \\*models\\* \\| not the hardware.\n'
                          '- Second note.\n\nFilesystem x fs block size'), 'title, then notes %r' % text[:200])
    heads = re.findall(r'^## (.*)$', text, re.M)
    check(heads[:3] == ['Reproduction', 'Headline', 'Environment'], 'Reproduction, then Headline first: %r' % heads)
    for sec in ['## Reproduction', '## Headline', '## Environment', '## Summary', '## Steps', '## Cell facts', '## Pivot tables', '## Charts',
                '## Published vs measured', '## Warnings', '## Failed cells']:
        check(sec in text, 'section ' + sec)
    t = md_tables(text)
    _, h, rows = table(t, 'Summary')
    check(h == ['#', 'id', 'fs', 'fs_block', 'note', 'status', 'elapsed (s)'], 'summary header %r' % h)
    check([r[0] for r in rows] == ['0', '1', '2', '3'], 'summary rows')
    check([r[5] for r in rows] == ['ok', 'ok', 'ok', 'failed'], 'summary status')
    _, h, rows = table(t, 'Environment')
    check(['cpu', 'Test CPU | 2 cores'] in rows, 'escaped bar in a cell: %r' % rows)
    facts = [x for x in t if x[0] == 'Cell facts']
    check(len(facts) == 2, 'two fact tables')
    if len(facts) == 2:
        check(facts[0][1] == ['fact', 'value'] and facts[0][2] == [['dev.name', 'loop0']], 'common facts %r' % (facts[0],))
        check(facts[1][1] == ['#', 'fs.type', 'fs.block_size'] and len(facts[1][2]) == 4, 'per-cell facts %r' % (facts[1],))
        check(facts[1][2][1] == ['1', 'ext4', '4096 bytes'], 'per-cell fact row %r' % facts[1][2][1])
    _, h, rows = table(t, 'Step `ro` (pgbench)')
    check(h[-2:] == ['tps (tps)', 'lat_avg (ms)'], 'ro header %r' % h)
    check(len(rows) == 4 and rows[1][-2] == '2000 ± 24.84' and rows[3][-2] == '-', 'ro rows %r' % rows)
    _, h, rows = table(t, 'ro.tps (tps)')
    check(h == ['fs \\ fs_block', '1KiB', '1KiB published', '4KiB', '4KiB published'], 'pivot header %r' % h)
    check(rows == [['ext4', '834 ± 718.5', '2000', '2000 ± 24.84', '2000'],
                   ['xfs', '1737 ± 2718', '5000', 'failed', '2200']], 'pivot %r' % rows)
    _, h, rows = table(t, 'seqwrite.mb_s (MB/s), median — fs=xfs')
    check(h == ['fs_block', 'seqwrite.mb_s', 'published'], 'published column %r' % h)
    check(rows == [['1KiB', '301', '300'], ['4KiB', '400', '-']], 'pivot by group %r' % rows)
    _, h, rows = table(t, 'seqwrite.mb_s (MB/s), median — fs=ext4')
    check(h == ['fs_block', 'seqwrite.mb_s'], 'no published column without a figure %r' % h)
    _, h, rows = table(t, 'Reproduction')
    check(h == ['#', 'published claim', 'checked by', 'measured', 'published', 'verdict', 'note', 'role'], 'repro header %r' % h)
    # the shapes only: the absolute figures appear once, under Published vs measured
    check(len(rows) == 3, 'repro rows: %d' % len(rows))
    if len(rows) == 3:
        check(rows[0][:6] == ['8', '4 KiB blocks write 1.5x faster',
                              'ratio of `seqwrite.mb_s`: {fs_block: 4KiB} / {fs_block: 1k}',
                              '1.66 (median of 2 pairs)', '1.5 [1.2, 1.8]', 'PASS'], 'ratio claim %r' % rows[0])
        check(rows[1][:6] == ['9', 'xfs is faster', 'order of `ro.tps`: {fs: xfs} > {fs: ext4}',
                              'ratio 1.11 (median of 1 pair; 1 hold)', 'left > right', 'PASS'], 'order claim %r' % rows[1])
        check(rows[1][6] == '1 of 2 pairs not measured', 'order note %r' % rows[1])
        # two metrics of each cell: both named in "checked by"
        check(rows[2][:6] == ['10', 'about 10 tps per MB/s', 'ratio `ro.tps` / `seqwrite.mb_s` in {fs: ext4}',
                              '9.926 (median of 2 pairs)', '10 [9.5, 10.5]', 'PASS'], 'metrics ratio claim %r' % rows[2])
    check('The 7 absolute figures: *Published vs measured* below.' in text, 'absolute figures named once')
    check('(cell values are medians over the 3 repeats)' in text, 'repeats named')
    check('4 PASS, 3 FAIL, 1 XFAIL, 1 XPASS, 1 SKIP; 1 strict failure (all expectations).' in text, 'repro totals')
    _, h, pr = table(t, 'Pairs')
    check(h == ['#', 'cell (where)', 'cell (to)', 'where', 'to', 'ratio', 'holds'], 'pairs header %r' % h)
    check(len(pr) == 6, 'pairs: %r' % pr)
    if len(pr) == 6:
        # the median passes though this pair alone is outside the bounds
        check(pr[0][0] == '8' and pr[0][3:] == ['201 MB/s', '101 MB/s', '1.99', 'no'], 'ratio pair %r' % pr[0])
        check(pr[1][3:] == ['400 MB/s', '301 MB/s', '1.329', 'yes'], 'ratio pair %r' % pr[1])
        check(pr[3][0] == '9' and 'step failed' in pr[3][6] and pr[3][3] == '-', 'unmeasured pair %r' % pr[3])
        # two metrics of one cell: the cell once, both values
        check(pr[4][0] == '10' and pr[4][1].startswith('0 (fs=ext4') and pr[4][2:] == ['same', '1000 tps', '101 MB/s', '9.901', 'yes'],
              'metrics pair %r' % pr[4])
    _, h, rows = table(t, 'Published vs measured (on this machine)')
    check(h == ['#', 'cell', 'metric', 'expected', 'bounds', 'measured', 'diff %', 'status', 'note'], 'expect header')
    check([r[7] for r in rows] == ['PASS', 'FAIL', 'XFAIL', 'XPASS', 'FAIL', 'SKIP', 'FAIL (strict)'],
          'expect statuses %r' % [r[7] for r in rows])
    check(rows[1][6] == '-58.3%' and rows[0][4] == '[1800, 2200]' and rows[2][4] == '[4500, inf]', 'expect figures')
    check('1 PASS, 3 FAIL, 1 XFAIL, 1 XPASS, 1 SKIP; 1 strict failure.' in text, 'expect totals')
    failed = text[text.index('## Failed cells'):]
    check('cell 3 `a1b2c3d4e5f3`' in failed and 'connection to server lost' in failed, 'failed cell listed')
    charts = re.findall(r'!\[([^\]]*)\]\(([^)]+)\)', text)
    check([c[1] for c in charts] == ['chart-%d.svg' % i for i in range(1, 6)], 'chart links %r' % charts)
    return charts


def svg_series(path):
    root = ET.parse(path).getroot()  # raises on invalid XML
    check(root.tag == SVG + 'svg', path + ' root element')
    out = []
    for g in root.iter(SVG + 'g'):
        if g.get('class') != 'series':
            continue
        pts = sum(len(p.get('points').split()) for p in g.iter(SVG + 'polyline'))
        bars = len([r for r in g.iter(SVG + 'rect') if r.get('class') == 'bar'])
        marks = len([c for c in g.iter(SVG + 'circle') if c.get('class') == 'point'])
        check(marks in (0, pts), '%s: markers match points' % path)
        out.append((g.get('data-label'), pts, bars))
    texts = [t.text for t in root.iter(SVG + 'text')]
    return out, texts


def svg_marks(path):
    """(series, label) of every published mark; each is a dashed line."""
    root = ET.parse(path).getroot()
    out = []
    for g in root.iter(SVG + 'g'):
        if g.get('class') != 'published':
            continue
        check(g.get('stroke-dasharray'), path + ': marks are dashed')
        lines = [l for l in g.iter(SVG + 'line') if l.get('class') == 'ref-mark']
        labels = [t.text for t in g.iter(SVG + 'text') if t.get('class') == 'ref-label']
        check(len(lines) == len(labels), path + ': one label per mark')
        out += list(zip([l.get('data-series') for l in lines], labels))
    return out


def check_svg(d):
    s, texts = svg_series(os.path.join(d, 'chart-1.svg'))
    check(s == [('ext4', 10, 0), ('xfs', 10, 0)], 'chart-1 series %r' % s)
    check('ro.tps over time by fs — fs_block=1KiB' in texts and 'time (s)' in texts, 'chart-1 title names its facet %r' % texts)
    check(svg_marks(os.path.join(d, 'chart-1.svg')) == [('ext4', 'published 2000 (ext4)'), ('xfs', 'published 5000 (xfs)')],
          'chart-1 published marks')
    check(svg_marks(os.path.join(d, 'chart-3.svg')) == [('xfs', 'published 300')], 'chart-3 published mark')
    check(svg_marks(os.path.join(d, 'chart-5.svg')) == [('tps', 'published 2000'), ('tps', 'published 2200')],
          'chart-5 published marks %r' % svg_marks(os.path.join(d, 'chart-5.svg')))
    check('ro.tps (tps)' in texts, 'y label with unit')
    s, _ = svg_series(os.path.join(d, 'chart-2.svg'))
    check(s == [('ext4', 10, 0), ('xfs', 3, 0)], 'chart-2 series %r' % s)
    s, texts = svg_series(os.path.join(d, 'chart-3.svg'))
    # fs_block (1KiB, 4KiB) is an axis of sizes: bars, not a line (docs/reports.md)
    check(s == [('ext4', 0, 2), ('xfs', 0, 2)], 'chart-3 series %r' % s)
    check('1KiB' in texts and '4KiB' in texts and 'seqwrite.mb_s (MB/s)' in texts, 'chart-3 axis texts %r' % texts)
    s, _ = svg_series(os.path.join(d, 'chart-4.svg'))
    check(s == [('tps', 0, 2)], 'chart-4 bars %r' % s)
    s, _ = svg_series(os.path.join(d, 'chart-5.svg'))
    check(s == [('tps', 0, 1)], 'chart-5 bars (failed cell has none) %r' % s)


def check_compare(path):
    text = open(path).read()
    check('- Cells: 4 shared, 0 only in A, 0 only in B' in text, 'compare cell counts')
    t = md_tables(text)
    _, h, rows = table(t, 'Metrics')
    check(h == ['#', 'id', 'cell', 'metric', 'A', 'B', 'n', 'B/A', '95% CI', 'p', 'test', 'verdict'], 'compare header %r' % h)
    check(len(rows) == 14, 'compare rows: %d' % len(rows))
    check(all(r[7] == '1.500' for r in rows), 'every ratio is 1.5')
    _, h, rows = table(t, 'Geometric mean of B/A per metric')
    check([r[0] for r in rows] == ['seqwrite.mb_s', 'seqwrite.iops', 'ro.tps', 'ro.lat_avg'], 'geo metrics %r' % rows)
    check([r[1] for r in rows] == ['4', '4', '3', '3'] and all(r[2] == '1.500' for r in rows), 'geo means %r' % rows)


def check_json(d):
    r = json.load(open(os.path.join(d, 'results.json')))
    check(r['format'] == 'benchgrid-results' and r['version'] == 1, 'format')
    c = r['cells'][0]
    check(c['params'] == {'fs': 'ext4', 'fs_block': '1KiB', 'note': NOTE}, 'params %r' % c['params'])
    m = c['summary'][1]['metrics']['tps']
    check(m['value'] == 834 and m['n'] == 3 and m['median'] == 1000 and 'warning' in m, 'summary %r' % m)
    check(r['notes'] == ['Approximated: the disks are *models* | not the hardware.', 'Second note.'], 'notes %r' % r.get('notes'))
    check(r['expect'][7]['ratio']['of'] == 'seqwrite.mb_s' and r['expect'][8]['order'][1] == '>', 'new expect kinds stored')
    check(r['expect'][9]['ratio'] == {'of': 'ro.tps', 'to': 'seqwrite.mb_s', 'where': {'fs': 'ext4'}}, 'metrics ratio stored %r' % r['expect'][9])
    check(len(c['reps']) == 3 and c['reps'][0][1]['series']['tps']['t'][:2] == [1, 2], 'reps')


def main():
    d, cmp_md = sys.argv[1], sys.argv[2]
    check_json(d)
    check_csv(d)
    check_md(d)
    check_svg(d)
    check_compare(cmp_md)
    if failures:
        sys.exit(1)
    print('report files: all checks passed')


main()
