/* rep_html_page: see rep_html_page.h. */
#include "rep_html_page.h"

#include "sha256.h"

static const char style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;"
    "margin:0 auto;max-width:1280px;padding:0 24px 48px}\n"
    "h1{font-size:24px;margin:20px 0 8px}\n"
    "h2{font-size:19px;border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}\n"
    "h3{font-size:16px;margin-top:22px}\n"
    "code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12.5px;background:#f3f3f3;"
    "padding:0 3px;border-radius:3px}\n"
    "pre{background:#f6f6f6;border:1px solid #e3e3e3;padding:8px 10px;overflow:auto;font-size:12.5px}\n"
    "pre code{background:none;padding:0}\n"
    ".tw{overflow-x:auto;margin:8px 0 14px}\n"
    "table{border-collapse:collapse;font-size:13px}\n"
    "th,td{border:1px solid #ddd;padding:3px 8px;text-align:left;white-space:nowrap}\n"
    "td[data-v]{text-align:right;font-variant-numeric:tabular-nums}\n"
    "th{background:#eef2f7;cursor:pointer;user-select:none}\n"
    "th:hover{background:#dde6f0}\n"
    "th[aria-sort=ascending]::after{content:' \\25B2';font-size:10px}\n"
    "th[aria-sort=descending]::after{content:' \\25BC';font-size:10px}\n"
    "tbody tr:nth-child(even){background:#fafafa}\n"
    "tr:target{background:#fff3b0!important;outline:2px solid #e0b000}\n"
    "details{margin:4px 0 14px}summary{cursor:pointer;color:#234;font-weight:600}\n"
    "figure{margin:12px 0}figure.chart svg{max-width:100%;height:auto;border:1px solid #eee}\n"
    "figure.multiples .grid{display:flex;flex-wrap:wrap;gap:8px}figure.multiples figure.chart{margin:0}\n"
    "figcaption{font-weight:600;margin-bottom:6px}\n"
    "nav.toc{background:#f7f9fb;border:1px solid #e3e8ee;padding:8px 14px;margin:12px 0;font-size:13px}\n"
    "nav.toc ul{margin:4px 0;padding-left:18px;columns:2}\n"
    "a{color:#0b5cad}\n";

/* Sorting: by data-v (the full-precision value) when the cell has one, else
 * by the number the text starts with, else by the text; numbers before
 * the rest in both directions, ties in the original order.
 * #sort=TABLEID:COL[:desc] sorts on load. */
static const char script[] =
    "(function () {\n"
    "'use strict';\n"
    "function num(td) {\n"
    "  var v = td.getAttribute('data-v');\n"
    "  if (v !== null && v !== '') return parseFloat(v);\n"
    "  var m = /^[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?/.exec(td.textContent.trim());\n"
    "  return m ? parseFloat(m[0]) : null;\n"
    "}\n"
    "function sortTable(t, col, dir) {\n"
    "  var tb = t.tBodies[0];\n"
    "  if (!tb) return;\n"
    "  var rows = Array.prototype.slice.call(tb.rows).map(function (r, i) {\n"
    "    var td = r.cells[col];\n"
    "    return {r: r, i: i, n: td ? num(td) : null, s: td ? td.textContent.trim() : ''};\n"
    "  });\n"
    "  rows.sort(function (a, b) {\n"
    "    if ((a.n === null) !== (b.n === null)) return a.n === null ? 1 : -1;\n"
    "    var c = a.n !== null ? a.n - b.n : a.s < b.s ? -1 : a.s > b.s ? 1 : 0;\n"
    "    return c !== 0 ? c * dir : a.i - b.i;\n"
    "  });\n"
    "  rows.forEach(function (x) { tb.appendChild(x.r); });\n"
    "  var ths = t.tHead ? t.tHead.rows[0].cells : [];\n"
    "  for (var k = 0; k < ths.length; k++) ths[k].removeAttribute('aria-sort');\n"
    "  if (ths[col]) ths[col].setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');\n"
    "  document.body.setAttribute('data-sorted', t.id + ':' + col + ':' + (dir > 0 ? 'asc' : 'desc'));\n"
    "}\n"
    "Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (t) {\n"
    "  if (!t.tHead) return;\n"
    "  Array.prototype.forEach.call(t.tHead.rows[0].cells, function (th, col) {\n"
    "    th.tabIndex = 0;\n"
    "    th.title = 'sort by this column';\n"
    "    function go() { sortTable(t, col, th.getAttribute('aria-sort') === 'ascending' ? -1 : 1); }\n"
    "    th.addEventListener('click', go);\n"
    "    th.addEventListener('keydown', function (e) {\n"
    "      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); go(); }\n"
    "    });\n"
    "  });\n"
    "});\n"
    "var m = /^#sort=([^:]+):(\\d+)(:desc)?$/.exec(location.hash);\n"
    "if (m) {\n"
    "  var st = document.getElementById(decodeURIComponent(m[1]));\n"
    "  if (st) sortTable(st, +m[2], m[3] ? -1 : 1);\n"
    "}\n"
    "var figs = document.querySelectorAll('figure.chart'), ok = 0;\n"
    "Array.prototype.forEach.call(figs, function (f) {\n"
    "  var svg = f.querySelector('svg'), r = svg ? svg.getBoundingClientRect() : null;\n"
    "  var good = !!(svg && r.width > 0 && r.height > 0 && svg.querySelector('g.series, g.heatmap'));\n"
    "  f.setAttribute('data-rendered', good ? 'yes' : 'no');\n"
    "  ok += good ? 1 : 0;\n"
    "});\n"
    "document.body.setAttribute('data-charts', ok + '/' + figs.length);\n"
    "function reveal() {\n"
    "  var el = location.hash.indexOf('#cell-') === 0 && document.getElementById(location.hash.slice(1));\n"
    "  var d = el && el.closest('details');\n"
    "  if (d) d.open = true;\n"
    "}\n"
    "window.addEventListener('hashchange', reveal);\n"
    "reveal();\n"
    "})();\n";

/* The policy lets exactly one script run: ours, by the SHA-256 of its text
 * (the bytes between <script> and </script>). A script or an event handler
 * (onerror=...) that got into the page some other way does not run. */
void rep_html_page_start(FILE *out, const char *title)
{
	char hash[SHA256_B64_LEN];
	sha256_base64(script, sizeof(script) - 1, hash);
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n", out);
	fprintf(out,
	        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	        "style-src 'unsafe-inline'; script-src 'sha256-%s'; img-src data:\">\n",
	        hash);
	fputs("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"benchgrid\">\n<title>",
	      out);
	fputs(title, out);
	fputs("</title>\n<style>\n", out);
	fputs(style, out);
	fputs("</style>\n</head>\n<body>\n<main>\n", out);
}

void rep_html_page_end(FILE *out)
{
	fputs("</main>\n<script>", out);
	fputs(script, out); /* exactly the bytes hashed in the policy */
	fputs("</script>\n</body>\n</html>\n", out);
}
