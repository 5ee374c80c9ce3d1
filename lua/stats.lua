-- stats: summary statistics over a list of numbers.
--
--   stats.mean(xs), stats.median(xs), stats.stddev(xs) (sample, n - 1),
--   stats.percentile(xs, p) (p in 0..100, linear between closest ranks),
--   stats.min(xs), stats.max(xs), stats.sum(xs)
-- Empty lists give nil (no number describes them); nothing is modified.
local M = {}

local function check(xs, fn)
	if type(xs) ~= "table" then
		error("stats." .. fn .. ": expected a list of numbers, got " .. type(xs), 3)
	end
	for i = 1, #xs do
		if type(xs[i]) ~= "number" then
			error(("stats.%s: item %d is a %s, not a number"):format(fn, i, type(xs[i])), 3)
		end
	end
	return #xs
end

local function sorted(xs)
	local s = {}
	for i = 1, #xs do s[i] = xs[i] end
	table.sort(s)
	return s
end

function M.sum(xs)
	check(xs, "sum")
	local t = 0
	for i = 1, #xs do t = t + xs[i] end
	return t
end

function M.mean(xs)
	local n = check(xs, "mean")
	if n == 0 then return nil end
	return M.sum(xs) / n
end

function M.min(xs)
	local n = check(xs, "min")
	if n == 0 then return nil end
	return math.min(table.unpack(xs))
end

function M.max(xs)
	local n = check(xs, "max")
	if n == 0 then return nil end
	return math.max(table.unpack(xs))
end

-- Sample standard deviation (divides by n - 1, as fio and pgbench's
-- per-run figures are samples); 0 for a single value.
function M.stddev(xs)
	local n = check(xs, "stddev")
	if n == 0 then return nil end
	if n == 1 then return 0.0 end
	local m = M.mean(xs)
	local ss = 0
	for i = 1, n do
		local d = xs[i] - m
		ss = ss + d * d
	end
	return math.sqrt(ss / (n - 1))
end

-- Linear interpolation between closest ranks (numpy's default): p = 0 is
-- the minimum, p = 100 the maximum, p = 50 the median.
function M.percentile(xs, p)
	local n = check(xs, "percentile")
	if type(p) ~= "number" or p < 0 or p > 100 then
		error("stats.percentile: p must be a number from 0 to 100", 2)
	end
	if n == 0 then return nil end
	local s = sorted(xs)
	local r = (p / 100) * (n - 1) + 1
	local lo = math.floor(r)
	if lo >= n then return s[n] end
	return s[lo] + (r - lo) * (s[lo + 1] - s[lo])
end

function M.median(xs)
	check(xs, "median")
	return M.percentile(xs, 50)
end

return M
