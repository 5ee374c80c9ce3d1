#!/usr/bin/python3
"""browser_cdp: open report.html in headless Chromium through the DevTools
protocol on a pipe (--remote-debugging-pipe: commands on fd 3, events and
replies on fd 4, JSON messages ended by NUL), with the standard library
only. Used by browser.sh:

  browser_cdp.py CHROME PROFILE BROKEN_URL REPORT_URL EXPECTED_ORDER SHOT [FIXED_URL]

1. BROKEN_URL (a script error and a missing image) must show both problems:
   the detector can fail.
2. REPORT_URL (with #sort=t-step-w-io:COL:desc) must load with no console
   message, exception, log error or warning, or failed request; its DOM
   after the scripts ran is checked (charts drawn, the sorted order equals
   EXPECTED_ORDER, folds, links to cells, escaping); a click on a header of
   the Summary table sorts it.
3. A 1280x2000 screenshot is saved to SHOT.
4. Every chart's series has a non-empty bounding box, each line >= 2 points
   and each bar a non-zero size (the geometry, not the page's verdict).
   browser_cdp.py --latency CHROME PROFILE REPORT_URL SHOTDIR
checks a report of examples/latency-charts.yaml instead: no console
message, and each latency chart kind (cdf, histogram, heatmap, percentiles,
a second y axis) present with marks of non-zero size; each chart's
screenshot in SHOTDIR/latency-KIND.png (docs/img/ holds copies).
5. With FIXED_URL (a report of fixed values, #sort=PIVOT:0 on the pivot of
   sizes sb): the sizes 512kB < 16MB < 128MB < 1GB in order, and a click on
   the headers sb and v sorts sizes and numbers (9, 10, 100) by value.
"""
import base64
import html.parser
import json
import os
import select
import subprocess
import sys
import time


class CDP:
    def __init__(self, chrome, profile):
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()
        args = ['--headless=new', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-extensions',
                '--user-data-dir=' + profile, '--remote-debugging-pipe', 'about:blank']
        # bash puts the pipes on fds 3 and 4, then becomes Chromium
        self.proc = subprocess.Popen(
            ['bash', '-c', 'exec "$0" "$@" 3<&%d 4>&%d' % (to_chrome_r, from_chrome_w), chrome] + args,
            pass_fds=(to_chrome_r, from_chrome_w), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b''
        self.next_id = 0
        self.events = []
        self.replies = {}

    def _read(self, timeout):
        r, _, _ = select.select([self.from_chrome], [], [], timeout)
        if not r:
            return
        data = os.read(self.from_chrome, 1 << 20)
        if not data:
            raise RuntimeError('Chromium closed the pipe (exit %r)' % self.proc.poll())
        self.buf += data
        while b'\0' in self.buf:
            msg, self.buf = self.buf.split(b'\0', 1)
            m = json.loads(msg)
            if 'id' in m:
                self.replies[m['id']] = m
            else:
                self.events.append(m)

    def call(self, method, params=None, session=None, timeout=20):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session:
            msg['sessionId'] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b'\0')
        end = time.time() + timeout
        while self.next_id not in self.replies:
            if time.time() > end:
                raise RuntimeError('no reply to ' + method)
            self._read(end - time.time())
        reply = self.replies.pop(self.next_id)
        if 'error' in reply:
            raise RuntimeError('%s: %s' % (method, reply['error']))
        return reply.get('result', {})

    def wait_event(self, method, timeout=20):
        end = time.time() + timeout
        while not any(e['method'] == method for e in self.events):
            if time.time() > end:
                raise RuntimeError('no ' + method)
            self._read(end - time.time())

    def pump(self, seconds):
        end = time.time() + seconds
        while time.time() < end:
            self._read(end - time.time())

    def close(self):
        try:
            self.call('Browser.close', timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def problems(events):
    """Every console message, exception, log error/warning and failed request."""
    urls, out = {}, []
    for e in events:
        m, p = e['method'], e.get('params', {})
        if m == 'Network.requestWillBeSent':
            urls[p['requestId']] = p['request']['url']
        elif m == 'Runtime.exceptionThrown':
            d = p['exceptionDetails']
            out.append('exception: ' + d.get('exception', {}).get('description', d.get('text', '')))
        elif m == 'Runtime.consoleAPICalled':
            out.append('console.%s: %s' % (p['type'], ' '.join(str(a.get('value', a.get('description')))
                                                               for a in p['args'])))
        elif m == 'Log.entryAdded' and p['entry']['level'] in ('error', 'warning'):
            out.append('log %s: %s' % (p['entry']['level'], p['entry']['text']))
        elif m == 'Network.loadingFailed':
            out.append('failed resource %s: %s' % (urls.get(p['requestId'], '?'), p['errorText']))
        elif m == 'Network.responseReceived' and p['response'].get('status', 200) >= 400:
            out.append('HTTP %s for %s' % (p['response']['status'], p['response']['url']))
    return out


def load(cdp, sid, url):
    cdp.events.clear()
    cdp.call('Page.navigate', {'url': url}, sid)
    cdp.wait_event('Page.loadEventFired')
    cdp.pump(0.5)  # late console messages and requests
    return problems(cdp.events)


def evaluate(cdp, sid, expr):
    r = cdp.call('Runtime.evaluate', {'expression': expr, 'returnByValue': True}, sid)
    if 'exceptionDetails' in r:
        raise RuntimeError('evaluate: %s' % r['exceptionDetails'])
    return r['result'].get('value')


class Dom(html.parser.HTMLParser):
    """What the checks need from the DOM after the scripts ran."""

    def __init__(self):
        super().__init__()
        self.body, self.figs, self.fig, self.scripts, self.details = {}, [], None, 0, 0
        self.tab, self.rows, self.cell, self.td = None, [], 0, False
        self.links, self.anchors, self.err_bars, self.title, self.in_title = set(), set(), 0, '', False

    def handle_starttag(self, tag, a):
        a = dict(a)
        cls = (a.get('class') or '').split()
        if tag == 'body':
            self.body = a
        self.scripts += tag == 'script'
        self.details += tag == 'details'
        self.in_title = tag == 'title'
        if tag == 'figure' and 'chart' in cls:
            self.fig = {'rendered': a.get('data-rendered'), 'svg': 0, 'series': 0}
            self.figs.append(self.fig)
        if tag == 'svg' and self.fig is not None:
            self.fig['svg'] += 1
        if tag == 'g' and 'series' in cls and self.fig is not None:
            self.fig['series'] += 1
        self.err_bars += tag == 'g' and 'err-bars' in cls
        if tag == 'table':
            self.tab = a.get('id')
        if tag == 'tr' and self.tab == 't-step-w-io':
            self.cell = 0
        if tag == 'td' and self.tab == 't-step-w-io':
            self.td, self.cell = self.cell == 0, self.cell + 1
        if tag == 'a' and (a.get('href') or '').startswith('#cell-'):
            self.links.add(a['href'][1:])
        if tag == 'tr' and (a.get('id') or '').startswith('cell-'):
            self.anchors.add(a['id'])

    def handle_endtag(self, tag):
        if tag == 'figure':
            self.fig = None
        if tag == 'table':
            self.tab = None
        if tag == 'td':
            self.td = False
        if tag == 'title':
            self.in_title = False

    def handle_data(self, d):
        if self.td and d.strip():
            self.rows.append(d.strip())
        if self.in_title:
            self.title += d


def check_dom(text, expected):
    p = Dom()
    p.feed(text)
    bad, n = [], len(p.figs)
    if n < 2:
        bad.append('%d chart figures, 2 expected' % n)
    if any(f['svg'] != 1 or f['rendered'] != 'yes' or f['series'] < 1 for f in p.figs):
        bad.append('charts not drawn: %r' % p.figs)
    if p.body.get('data-charts') != '%d/%d' % (n, n):
        bad.append('data-charts %r for %d figures' % (p.body.get('data-charts'), n))
    if p.err_bars < 1:
        bad.append('no error bars though every cell ran 3 times')
    if p.rows != expected:
        bad.append('step table in order %r, expected %r' % (p.rows, expected))
    if not (p.body.get('data-sorted') or '').startswith('t-step-w-io:'):
        bad.append('data-sorted %r' % p.body.get('data-sorted'))
    if p.details < 1:
        bad.append('the long step table is not folded')
    if not p.links or not p.links <= p.anchors:
        bad.append('links to cells %r, rows %r' % (sorted(p.links), sorted(p.anchors)))
    if p.scripts != 1:
        bad.append('%d <script> elements: the scenario text was not escaped' % p.scripts)
    if 'pwned' in p.title or '<b>' not in p.title:
        bad.append('title %r' % p.title)
    return bad, 'charts %d drawn, step table %s, folds %d, links %d' % (n, ','.join(p.rows), p.details,
                                                                       len(p.links))


SORT_BY_CLICK = """(function () {
  var t = document.getElementById('t-summary'), ths = t.tHead.rows[0].cells, th = ths[ths.length - 1];
  th.click(); th.click();  /* ascending, then descending */
  return Array.prototype.map.call(t.tBodies[0].rows, function (r) {
    return parseFloat(r.cells[ths.length - 1].getAttribute('data-v'));
  });
})()"""


# Each chart's series as drawn: the bounding box of the group, and of each of
# its lines (with their number of points) and bars. The page's own
# data-rendered verdict does not look at the geometry.
CHART_GEOMETRY = """Array.prototype.map.call(document.querySelectorAll('figure.chart'), function (f) {
  return Array.prototype.map.call(f.querySelectorAll('g.series'), function (g) {
    var b = g.getBBox();
    return {label: g.getAttribute('data-label'), w: b.width, h: b.height,
      lines: Array.prototype.map.call(g.querySelectorAll('polyline'), function (p) {
        var q = p.getBBox(); return [p.points.numberOfItems, q.width, q.height];
      }),
      bars: Array.prototype.map.call(g.querySelectorAll('rect.bar'), function (r) {
        var q = r.getBBox(); return [q.width, q.height];
      })};
  });
})"""


def check_charts(cdp, sid, page):
    bad, figs = [], evaluate(cdp, sid, CHART_GEOMETRY)
    if not figs:
        bad.append('%s: no charts' % page)
    for i, series in enumerate(figs, 1):
        if not series:
            bad.append('%s chart %d: no series' % (page, i))
        for s in series:
            what = '%s chart %d series %r' % (page, i, s['label'])
            if not (s['w'] > 0 and s['h'] > 0):
                bad.append('%s: empty bounding box %gx%g' % (what, s['w'], s['h']))
            if not s['lines'] and not s['bars']:
                bad.append('%s: neither a line nor a bar' % what)
            for n, w, h in s['lines']:
                if n < 2 or w <= 0:
                    bad.append('%s: a line of %d points, %gx%g' % (what, n, w, h))
            for w, h in s['bars']:
                if w <= 0 or h <= 0:
                    bad.append('%s: a bar of %gx%g' % (what, w, h))
    lines = sum(len(s['lines']) for f in figs for s in f)
    bars = sum(len(s['bars']) for f in figs for s in f)
    return bad, sum(len(s) for s in figs), lines, bars


# The texts of column col of a table's body, in the page's order.
COLUMN = """(function (id, col) {
  return Array.prototype.map.call(document.getElementById(id).tBodies[0].rows, function (r) {
    return r.cells[col].textContent.trim();
  });
})(%s, %d)"""

# Click twice on the header named name in each table that has one: the
# column's texts after the click that sorted it ascending (aria-sort) and
# after the one that sorted it descending.
CLICK = """(function (name) {
  var out = [];
  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (t) {
    var ths = t.tHead ? t.tHead.rows[0].cells : [];
    for (var c = 0; c < ths.length; c++) {
      if (ths[c].textContent.trim().split(' ')[0] !== name) continue;
      var col = function () {
        return Array.prototype.map.call(t.tBodies[0].rows, function (r) { return r.cells[c].textContent.trim(); });
      };
      ths[c].click(); var a = col(), da = ths[c].getAttribute('aria-sort');
      ths[c].click(); var b = col();
      out.push({table: t.id, up: da === 'ascending' ? a : b, down: da === 'ascending' ? b : a,
                dirs: [da, ths[c].getAttribute('aria-sort')]});
    }
  });
  return out;
})(%s)"""

SIZES = {'kB': 1 << 10, 'MB': 1 << 20, 'GB': 1 << 30}


def size_key(text):
    return int(text[:-2]) * SIZES[text[-2:]]


def number_key(text):
    return float(text.split()[0])


def check_fixed(cdp, sid, url):
    """The report of fixed values: #sort= on the pivot of sb, clicks on the
    sb and v headers, sizes and numbers in numeric order (not as text, not by
    the leading number), and the charts' geometry."""
    bad = ['fixed report: ' + s for s in load(cdp, sid, url)]
    table = url.split('#sort=', 1)[1].rsplit(':', 1)[0]
    rows = evaluate(cdp, sid, COLUMN % (json.dumps(table), 0))
    if rows != ['512kB', '16MB', '128MB', '1GB']:
        bad.append('#sort=%s:0 gave %r, expected 512kB, 16MB, 128MB, 1GB' % (table, rows))
    checked = 0
    for name, key in (('sb', size_key), ('v', number_key)):
        clicked = evaluate(cdp, sid, CLICK % json.dumps(name))
        if not clicked:
            bad.append('fixed report: no table with a column %r' % name)
        for c in clicked:
            want = sorted(c['up'], key=key)
            if (c['up'] != want or c['down'] != sorted(c['up'], key=key, reverse=True) or
                    sorted(c['dirs']) != ['ascending', 'descending'] or len(set(c['up'])) < 3):
                bad.append('clicks on %s in %s sorted %r (%s) and %r, expected %r and reversed' %
                           (name, c['table'], c['up'], c['dirs'], c['down'], want))
            checked += 1
    geometry, nseries, lines, bars = check_charts(cdp, sid, 'fixed report')
    return bad + geometry, ('fixed report: #sort= and %d header clicks in order, %d series drawn '
                            '(%d lines, %d bars)' % (checked, nseries, lines, bars)), (lines, bars)


# Each chart figure's kind, from what it draws, with the sizes of its marks
# and its place on the page (for its screenshot).
LATENCY_GEOMETRY = """Array.prototype.map.call(document.querySelectorAll('figure.chart'), function (f) {
  var sz = function (sel) {
    return Array.prototype.map.call(f.querySelectorAll(sel), function (e) {
      var q = e.getBBox(); return [q.width, q.height, e.points ? e.points.numberOfItems : 0];
    });
  };
  var r = (f.querySelector('svg') || f).getBoundingClientRect(), t = f.querySelector('svg title');
  return {title: t ? t.textContent : '', cells: sz('g.heatmap rect.cell'), hbars: sz('rect.hbar'),
    lines: sz('g.series polyline'), y2: f.querySelectorAll('g.axis.y2').length,
    xlog: /CDF|histogram/.test(t ? t.textContent : ''),
    box: [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height]};
})"""


def latency_main(chrome, profile, report, shotdir):
    cdp = CDP(chrome, profile)
    failures, found = [], {}
    try:
        target = cdp.call('Target.createTarget', {'url': 'about:blank'})['targetId']
        sid = cdp.call('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
        for m in ('Runtime.enable', 'Log.enable', 'Network.enable', 'Page.enable'):
            cdp.call(m, session=sid)
        seen = load(cdp, sid, report)
        failures += ['latency report.html: ' + s for s in seen]
        cdp.call('Emulation.setDeviceMetricsOverride',
                 {'width': 1280, 'height': 2000, 'deviceScaleFactor': 1, 'mobile': False}, sid)
        for f in evaluate(cdp, sid, LATENCY_GEOMETRY):
            t = f['title']
            kind = ('heatmap' if 'heatmap' in t else 'histogram' if 'histogram' in t else
                    'cdf' if 'CDF' in t else 'percentiles' if 'percentiles' in t else
                    'second-axis' if f['y2'] else 'other')
            marks = {'heatmap': f['cells'], 'histogram': f['hbars']}.get(kind, f['lines'])
            good = [m for m in marks if m[0] > 0 and m[1] > 0 and (kind in ('heatmap', 'histogram') or m[2] >= 2)]
            if not good:
                failures.append('%s chart %r: no marks of non-zero size (%r)' % (kind, t, marks[:3]))
            if kind in found:
                continue
            found[kind] = len(good)
            x, y, w, h = f['box']
            png = cdp.call('Page.captureScreenshot', {'format': 'png', 'captureBeyondViewport': True,
                                                     'clip': {'x': x, 'y': y, 'width': w, 'height': h,
                                                              'scale': 1}}, sid)['data']
            with open(os.path.join(shotdir, 'latency-%s.png' % kind), 'wb') as out:
                out.write(base64.b64decode(png))
        late = problems(cdp.events)
        failures += ['latency report.html later: ' + s for s in late[len(seen):]]
    finally:
        cdp.close()
    for kind in ('cdf', 'histogram', 'heatmap', 'percentiles', 'second-axis'):
        if kind not in found:
            failures.append('no %s chart in the latency report' % kind)
    if failures:
        print('FAIL: ' + '\nFAIL: '.join(failures))
        return 1
    print('browser: latency charts with marks: %s; screenshots in %s' %
          (', '.join('%s %d' % kv for kv in sorted(found.items())), shotdir))
    return 0


def main():
    if sys.argv[1] == '--latency':
        return latency_main(*sys.argv[2:6])
    chrome, profile, broken, report, expected, shot = sys.argv[1:7]
    fixed = sys.argv[7] if len(sys.argv) > 7 else None
    cdp = CDP(chrome, profile)
    failures = []
    try:
        target = cdp.call('Target.createTarget', {'url': 'about:blank'})['targetId']
        sid = cdp.call('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
        for m in ('Runtime.enable', 'Log.enable', 'Network.enable', 'Page.enable'):
            cdp.call(m, session=sid)

        seen = load(cdp, sid, broken)
        if not any('exception' in s for s in seen) or not any('missing.png' in s for s in seen):
            failures.append('the detector missed the broken page\'s problems: %r' % seen)

        seen = load(cdp, sid, report)
        failures += ['report.html: ' + s for s in seen]
        dom = evaluate(cdp, sid, 'document.documentElement.outerHTML')
        bad, summary = check_dom(dom, expected.split(','))
        failures += bad
        elapsed = evaluate(cdp, sid, SORT_BY_CLICK)
        if len(elapsed) < 2 or elapsed != sorted(elapsed, reverse=True):
            failures.append('clicking elapsed twice did not sort Summary descending: %r' % elapsed)
        geometry, nseries, lines, bars = check_charts(cdp, sid, 'report.html')
        failures += geometry
        summary += ', %d series with a non-empty box (%d lines, %d bars)' % (nseries, lines, bars)

        cdp.call('Emulation.setDeviceMetricsOverride',
                 {'width': 1280, 'height': 2000, 'deviceScaleFactor': 1, 'mobile': False}, sid)
        png = cdp.call('Page.captureScreenshot', {'format': 'png'}, sid)['data']
        with open(shot, 'wb') as f:
            f.write(base64.b64decode(png))
        late = problems(cdp.events)  # since the report loaded: sorting, the click, the screenshot
        failures += ['report.html later: ' + s for s in late[len(seen):]]
        if fixed:
            bad, line, (more_lines, more_bars) = check_fixed(cdp, sid, fixed)
            failures += bad
            summary += '; ' + line
            lines, bars = lines + more_lines, bars + more_bars
            if not lines or not bars:  # both kinds of chart checked
                failures.append('%d lines and %d bars drawn, both kinds expected' % (lines, bars))
    finally:
        cdp.close()
    if failures:
        print('FAIL: ' + '\nFAIL: '.join(failures))
        return 1
    print('browser: %s; Summary sorted by a click; screenshot %s' % (summary, shot))
    return 0


if __name__ == '__main__':
    sys.exit(main())
