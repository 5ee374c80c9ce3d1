#!/usr/bin/python3
"""report_pages: any number of report.html pages in headless Chromium
(browser_cdp's DevTools pipe), for scripts/regen-reports:

  report_pages.py CHROME PROFILE URL [URL...]

Each page must load with no console message, exception, log error or
warning, or failed request, and every chart figure must be drawn: each
<figure class="chart"> has an <svg> whose marks (series lines of >= 2
points, bars, histogram bars, heatmap cells) have a non-empty bounding box
as the browser lays them out; the page's own data-charts verdict says
every figure was drawn. A page without charts passes on its console alone.
Prints one line per page; exit 1 if any page fails.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_cdp import CDP, evaluate, load  # noqa: E402

# Per chart figure: its title, and the boxes of its marks.
MARKS = """Array.prototype.map.call(document.querySelectorAll('figure.chart'), function (f) {
  var box = function (sel, pts) {
    return Array.prototype.map.call(f.querySelectorAll(sel), function (e) {
      var q = e.getBBox(); return [q.width, q.height, pts ? e.points.numberOfItems : 1];
    });
  };
  var t = f.querySelector('svg title');
  return {title: t ? t.textContent : f.id, svgs: f.querySelectorAll('svg').length,
    lines: box('g.series polyline', true), bars: box('rect.bar', false),
    hbars: box('rect.hbar', false), cells: box('g.heatmap rect.cell', false)};
})"""


def check_page(cdp, sid, url):
    bad = ['console: ' + s for s in load(cdp, sid, url)]
    figs = evaluate(cdp, sid, MARKS)
    drawn = evaluate(cdp, sid, "document.body.getAttribute('data-charts')")
    n = len(figs)
    if n and drawn != '%d/%d' % (n, n):
        bad.append('data-charts %r for %d figures' % (drawn, n))
    marks = 0
    for i, f in enumerate(figs, 1):
        good = [m for m in f['lines'] if m[2] >= 2 and (m[0] > 0 or m[1] > 0)]
        good += [m for m in f['bars'] + f['hbars'] + f['cells'] if m[0] > 0 and m[1] > 0]
        if f['svgs'] < 1:
            bad.append('chart %d %r: no <svg>' % (i, f['title']))
        elif not good:
            bad.append('chart %d %r: no marks of non-zero size' % (i, f['title']))
        marks += len(good)
    return bad, n, marks


def main():
    chrome, profile, urls = sys.argv[1], sys.argv[2], sys.argv[3:]
    cdp = CDP(chrome, profile)
    fail = 0
    try:
        target = cdp.call('Target.createTarget', {'url': 'about:blank'})['targetId']
        sid = cdp.call('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
        for m in ('Runtime.enable', 'Log.enable', 'Network.enable', 'Page.enable'):
            cdp.call(m, session=sid)
        for url in urls:
            name = url.rsplit('/', 2)[-2] if url.endswith('/report.html') else url
            try:
                bad, n, marks = check_page(cdp, sid, url)
            except RuntimeError as e:
                bad, n, marks = ['cannot check: %s' % e], 0, 0
            if bad:
                fail = 1
                for b in bad:
                    print('FAIL browser %s: %s' % (name, b))
            else:
                print('ok   browser %s: %d charts drawn, %d marks, no console message' % (name, n, marks))
    finally:
        cdp.close()
    return fail


if __name__ == '__main__':
    sys.exit(main())
