#!/bin/bash
# browser_history: history.html (`benchgrid history`) of five real runs of a
# 2-cell io scenario on a dir target (the fifth run's I/O rate capped at
# half: a flagged regression) opened in headless Chromium through
# browser_cdp.py's DevTools client:
#   - no console message, exception, log error or warning, or failed
#     request;
#   - every chart figure measured as drawn by the page's script
#     (data-charts N/N), and its marks drawn: a line of >= 2 points of
#     non-zero size in each chart, the flagged points of each w.iops chart
#     circles of non-zero size, not joined by a line, the intervals' bars present;
#   - a click on the Regressions table's "value" header sorts it;
#   - a screenshot of the top of the page in the build folder
#     (browser/history.png; docs/img/history.png is a copy).
# Skipped (77) without /usr/bin/chromium.
set -euo pipefail
: "${BENCHGRID:?}" "${BENCHGRID_BUILD:?}" "${BENCHGRID_SRC:?}"
CHROME=/usr/bin/chromium
PY=/usr/bin/python3
if [ ! -x "$CHROME" ]; then
	echo "SKIP: $CHROME is not installed (scripts/setup installs it)"
	exit 77
fi
t=$(mktemp -d /tmp/bg-browser-hist-XXXXXX)
trap 'rm -rf "$t"' EXIT
export BENCHGRID_STATE=$t/state BENCHGRID_STORE=$t/results.db
mkdir -p "$t/w" "$BENCHGRID_BUILD/browser"
fail() {
	echo "FAIL: $*" >&2
	exit 1
}
cat >"$t/s.yaml" <<'Y'
benchgrid: 1
name: browser-history
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
	"$BENCHGRID" run -q --work-dir "$t/w" -o "$t/r$i" "$t/s.yaml" || fail "run $i failed"
done
"$BENCHGRID" run -q --work-dir "$t/w" -o "$t/r5" -D rate=500 "$t/s.yaml" || fail "the slow run failed"
"$BENCHGRID" history --html "$t/history.html" || fail "history failed"

timeout 120 "$PY" - "$BENCHGRID_SRC/tests/browser" "$CHROME" "$t/profile" "file://$t/history.html" \
	"$BENCHGRID_BUILD/browser/history.png" <<'PY'
import base64, sys
sys.path.insert(0, sys.argv[1])
from browser_cdp import CDP, evaluate, load, problems
chrome, profile, url, shot = sys.argv[2:6]

# Per chart: its title, the page's verdict, and per series its polylines
# (points, width, height), circles (width, height) and interval bars.
GEOMETRY = """(function () {
  return Array.prototype.map.call(document.querySelectorAll('figure.chart'), function (f) {
    var t = f.querySelector('text.title');
    return {title: t ? t.textContent : '', rendered: f.getAttribute('data-rendered'),
      series: Array.prototype.map.call(f.querySelectorAll('g.series'), function (g) {
        return {label: g.getAttribute('data-label'),
          lines: Array.prototype.map.call(g.querySelectorAll('polyline'), function (p) {
            var b = p.getBBox(); return [p.points.numberOfItems, b.width, b.height]; }),
          circles: Array.prototype.map.call(g.querySelectorAll('circle.point'), function (c) {
            var b = c.getBBox(); return [b.width, b.height]; }),
          bars: g.querySelectorAll('line.err-bar').length};
      })};
  });
})()"""

SORT = """(function () {
  var t = document.getElementById('t-regressions'), ths = t.tHead.rows[0].cells, col = -1;
  for (var c = 0; c < ths.length; c++) if (ths[c].textContent.trim() === 'value') col = c;
  function vals() { return Array.prototype.map.call(t.tBodies[0].rows, function (r) {
    return parseFloat(r.cells[col].getAttribute('data-v')); }); }
  ths[col].click(); var up = vals(); ths[col].click(); var down = vals();
  return {up: up, down: down, sorted: document.body.getAttribute('data-sorted')};
})()"""

failures = []
cdp = CDP(chrome, profile)
try:
    target = cdp.call('Target.createTarget', {'url': 'about:blank'})['targetId']
    sid = cdp.call('Target.attachToTarget', {'targetId': target, 'flatten': True})['sessionId']
    for m in ('Runtime.enable', 'Log.enable', 'Network.enable', 'Page.enable'):
        cdp.call(m, session=sid)
    cdp.call('Emulation.setDeviceMetricsOverride',
             {'width': 1280, 'height': 1100, 'deviceScaleFactor': 1, 'mobile': False}, sid)
    seen = load(cdp, sid, url)
    failures += ['history.html: ' + s for s in seen]
    charts = evaluate(cdp, sid, GEOMETRY)
    drawn = evaluate(cdp, sid, "document.body.getAttribute('data-charts')")
    if not charts or drawn != '%d/%d' % (len(charts), len(charts)):
        failures.append('charts drawn by the page\'s count: %r of %d' % (drawn, len(charts)))
    for c in charts:
        what = 'chart %r' % c['title']
        lines = [l for s in c['series'] for l in s['lines'] if l[0] >= 2 and l[1] > 0]
        if not lines:
            failures.append('%s: no line of >= 2 points with a width' % what)
        for s in c['series']:
            for w, h in s['circles']:
                if not (w > 0 and h > 0):
                    failures.append('%s series %r: a point of %gx%g' % (what, s['label'], w, h))
        if c['title'].startswith('w.iops'):
            flagged = [s for s in c['series'] if s['label'] == 'flagged']
            # the slow run at least (a run before it may be flagged too)
            if not flagged or not flagged[0]['circles'] or any(l[0] > 1 for l in flagged[0]['lines']):
                failures.append('%s: the flagged runs are not points alone: %r' % (what, flagged))
            if not any(s['bars'] for s in c['series']):
                failures.append('%s: no prediction interval drawn' % what)
    r = evaluate(cdp, sid, SORT)
    if r['up'] != sorted(r['up']) or r['down'] != sorted(r['down'], reverse=True) or len(r['up']) < 2:
        failures.append('Regressions table not sorted by value: %r' % r)
    png = cdp.call('Page.captureScreenshot', {'format': 'png'}, sid)['data']
    with open(shot, 'wb') as out:
        out.write(base64.b64decode(png))
    late = problems(cdp.events)
    failures += ['history.html later: ' + s for s in late[len(seen):]]
finally:
    cdp.close()
if failures:
    print('FAIL: ' + '\nFAIL: '.join(failures))
    sys.exit(1)
print('browser_history: %d charts drawn with marks, no console message, sorting works; %s' % (len(charts), shot))
PY
