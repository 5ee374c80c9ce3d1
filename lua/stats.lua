-- stats: summary statistics over a list of numbers.
--
--   stats.mean(xs), stats.median(xs), stats.stddev(xs) (sample, n - 1),
--   stats.percentile(xs, p) (p in 0..100, linear between closest ranks),
--   stats.min(xs), stats.max(xs), stats.sum(xs)
-- Empty lists give nil (no number describes them); nothing is modified.
--
-- The figures come from the engine's own statistics (engine/model/stats.c,
-- the C module core.stats), so hooks and reports compute them alike.
return require("core.stats")
