/* rep_md_latency: the latency charts of report.charts (issue 31): kind cdf,
 * histogram, heatmap and percentiles, drawn from the compact per-interval
 * histograms a step keeps in results.json (info `lat_hist`,
 * `read.lat_hist`, `write.lat_hist`: engine/model/hist.h, docs/results.md). */
#ifndef BENCHGRID_REP_MD_LATENCY_H
#define BENCHGRID_REP_MD_LATENCY_H

#include <stddef.h>

struct rep_ctx;
struct md;
struct chart_cfg;
struct rep_group;
struct run;
struct svg_chart;

/* How a chart is written (rep_md_write_svg). */
typedef int (*rep_md_svg_fn)(struct rep_ctx *cx, struct md *m, const struct svg_chart *ch);

/* The label of cell ci of group g in a legend: the parameters whose values
 * differ between the group's cells ("clients=8"), so that the legend names
 * what tells the series apart (issue 31); all when none differs. */
void rep_md_vary_label(const struct run *r, const struct rep_group *g, size_t ci, char *buf, size_t len);

/* The default title of a latency chart: "rr.read.lat: CDF", with
 * " (first repetition)" when cells repeat (the charts read that one). */
void rep_md_latency_title(const struct chart_cfg *c, size_t repeat, char *buf, size_t len);

/* The chart(s) of c for the cells of g: one chart with a line (or bars) per
 * cell for cdf and histogram; one chart per cell for heatmap and
 * percentiles. 0, or a negative errno. */
int rep_md_chart_latency(struct rep_ctx *cx, struct md *m, const struct chart_cfg *c,
                         const struct rep_group *g, const char *title, rep_md_svg_fn write);

/* The info key's family of a latency metric: "read.lat_p99_us" -> "read.lat",
 * "lat_p99_ms" -> "lat", "write_lat_p50_us" -> "write.lat"; false when the
 * name holds no "lat_". */
int rep_md_latency_family(const char *metric, char *buf, size_t len);

#endif
