/* group_total: one result for the io steps of a parallel group, as fio's
 * group_reporting prints one section for the jobs of a reporting group
 * (docs/scenario.md, "Group totals").
 *
 * As fio sums a group (stat.c's sum_thread_stats and the group's run
 * stats): bytes and I/Os add up, the seconds are the longest member's, so
 * iops = all I/Os / the longest seconds and mb_s = all bytes / the longest
 * seconds (the sum of the members' rates when they ran equally long). The
 * latency percentiles come from the members' latency distributions merged
 * (their lat_hist infos: within 3.2 %, hist.h); the mean is weighted by
 * I/Os, min and max are the members' extremes. read.* and write.* are
 * given when the members moved data both ways (a randread step beside a
 * randwrite one, or a randrw step), as fio's read and write sections.
 * cpu_usr and cpu_sys are the largest member's: every member measures the
 * one benchgrid process over its own measured part. The system monitor's,
 * the device models' and the server's figures are the longest member's. */
#ifndef BENCHGRID_GROUP_TOTAL_H
#define BENCHGRID_GROUP_TOTAL_H

#include <stddef.h>

#include "result.h"

/* The metric names a total can carry (for check's references; NULL-ended):
 * of a group whose steps move data both ways (read.* and write.* too), and
 * of one whose steps move it one way. */
extern const char *const group_total_names[];
extern const char *const group_total_names_one_way[];

/* Fill out (result_init'ed by the caller with the group's name) from the
 * n members; a member that failed or was skipped makes no total: -1 and
 * out's error says which. 0 when done. */
int group_total(const struct step_result *const *members, size_t n, struct step_result *out);

#endif
