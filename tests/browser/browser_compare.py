#!/usr/bin/python3
"""browser_compare: compare.html in headless Chromium, through
browser_cdp.py's DevTools client (its CDP class and checks, imported):

  browser_compare.py CHROME PROFILE BROKEN_URL PAGE_URL NMARKS SHOT

1. BROKEN_URL (a script error and a missing image) must show both
   problems: the detector can fail.
2. PAGE_URL (compare.html with #sort=t-metrics:7:desc, the table sorted by
   B/A) loads with no console message, exception, log error or warning, or
   failed request; the page's script ran (data-charts on <body>: every
   figure drawn); the table's B/A column is in descending order; a click
   on its header sorts it ascending, a second descending.
3. Every chart has marks of non-zero size: the forest plot NMARKS ratio
   squares (one per metric), each with its interval line where it has
   one, its rows' ratios sorted by |log B/A|; each bar chart's A and B
   bars.
4. A screenshot of the page's top (the verdicts and the charts), 1280 wide,
   to SHOT (docs/img/compare.png is a copy).
"""
import base64
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_cdp import CDP, evaluate, load, problems  # noqa: E402

MARKS = """(function () {
  var out = {forest: [], bars: []};
  var f = document.querySelector('svg.forest');
  if (f) Array.prototype.forEach.call(f.querySelectorAll('g.series'), function (g) {
    var r = g.querySelector('rect.ratio'), l = g.querySelector('line.ci');
    var b = r ? r.getBBox() : {width: 0, height: 0}, lb = l ? l.getBBox() : null;
    out.forest.push({ratio: parseFloat(g.getAttribute('data-ratio')), w: b.width, h: b.height,
                     ci: lb ? lb.width : -1});
  });
  Array.prototype.forEach.call(document.querySelectorAll('svg.cmp-bars'), function (s) {
    var bars = Array.prototype.map.call(s.querySelectorAll('g.series rect.bar'), function (r) {
      var q = r.getBBox(); return [q.width, q.height];
    });
    out.bars.push(bars);
  });
  out.figures = document.querySelectorAll('figure.chart').length;
  out.charts = document.body.getAttribute('data-charts');
  return out;
})()"""

COLUMN = """Array.prototype.map.call(document.getElementById('t-metrics').tBodies[0].rows,
  function (r) { return parseFloat(r.cells[7].textContent); })"""

CLICK = """(function () {
  var th = document.getElementById('t-metrics').tHead.rows[0].cells[7], out = [];
  th.click(); out.push([th.getAttribute('aria-sort'), %s]);
  th.click(); out.push([th.getAttribute('aria-sort'), %s]);
  return out;
})()""" % (COLUMN, COLUMN)


def main():
    chrome, profile, broken, page, nmarks, shot = sys.argv[1:7]
    nmarks = int(nmarks)
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

        seen = load(cdp, sid, page)
        failures += ['compare.html: ' + s for s in seen]
        m = evaluate(cdp, sid, MARKS)
        if m['charts'] != '%d/%d' % (m['figures'], m['figures']) or m['figures'] < 2:
            failures.append('charts drawn (data-charts): %r of %d figures' % (m['charts'], m['figures']))
        forest = m['forest']
        if len(forest) != nmarks:
            failures.append('forest: %d marks, %d metrics' % (len(forest), nmarks))
        for r in forest:
            if not (r['w'] > 0 and r['h'] > 0):
                failures.append('forest: an empty mark %r' % r)
            if r['ci'] == 0:
                failures.append('forest: an interval of zero width %r' % r)
        eff = [abs(math.log(r['ratio'])) for r in forest]
        if eff != sorted(eff, reverse=True):
            failures.append('forest: not sorted by effect: %r' % [r['ratio'] for r in forest])
        if not m['bars']:
            failures.append('no bar chart')
        for i, bars in enumerate(m['bars'], 1):
            if len(bars) < 2 or any(w <= 0 or h <= 0 for w, h in bars):
                failures.append('bar chart %d: bars %r' % (i, bars))
        col = evaluate(cdp, sid, COLUMN)
        if len(col) < 2 or col != sorted(col, reverse=True):
            failures.append('#sort=t-metrics:7:desc: B/A not descending: %r' % col)
        clicks = evaluate(cdp, sid, CLICK)
        (d1, c1), (d2, c2) = clicks
        if d1 != 'ascending' or c1 != sorted(c1) or d2 != 'descending' or c2 != sorted(c2, reverse=True):
            failures.append('clicks on B/A did not sort it: %r' % clicks)

        cdp.call('Emulation.setDeviceMetricsOverride',
                 {'width': 1280, 'height': 1500, 'deviceScaleFactor': 1, 'mobile': False}, sid)
        evaluate(cdp, sid, 'window.scrollTo(0, 0)')
        png = cdp.call('Page.captureScreenshot', {'format': 'png'}, sid)['data']
        with open(shot, 'wb') as f:
            f.write(base64.b64decode(png))
        late = problems(cdp.events)
        failures += ['compare.html later: ' + s for s in late[len(seen):]]
    finally:
        cdp.close()
    if failures:
        print('FAIL: ' + '\nFAIL: '.join(failures))
        return 1
    print('browser: compare.html: %d forest marks sorted by effect, %d bar charts, B/A sorted by '
          '#sort= and by clicks, no console message; screenshot %s' % (len(forest), len(m['bars']), shot))
    return 0


if __name__ == '__main__':
    sys.exit(main())
