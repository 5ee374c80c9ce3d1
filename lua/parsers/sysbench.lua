-- parsers.sysbench: the report of sysbench 1.0.x `run` (oltp_* and other
-- Lua tests, fileio, cpu, memory, threads, mutex) and its
-- --report-interval lines.
--
-- Every test: total_time_s, events, threads, lat_min_ms, lat_mean_ms
-- (sysbench's "avg"), lat_max_ms, lat_pNN_ms (the --percentile sysbench
-- printed, 95 by default; none with --percentile=0), lat_sum_ms.
-- OLTP (SQL statistics): tps, transactions, qps, queries, reads, writes,
-- other (queries of each kind), errors and errors_s (ignored errors),
-- reconnects and reconnects_s.
-- cpu: events_s. memory: ops_s, operations, mib, mib_s.
-- fileio: reads_s, writes_s, fsyncs_s, iops (reads_s + writes_s),
-- read_mib_s, write_mib_s, mib_s (their sum).
-- Interval lines become series: tps, qps, errors_s (OLTP), events_s (cpu
-- and other event tests), lat_pNN_ms.
local M = {}

local function num(text, pat)
	local v = text:match(pat)
	return v and tonumber(v)
end

local function parse_oltp(text, out)
	local tr, tps = text:match("\n%s*transactions:%s+(%d+)%s+%(([%d.]+) per sec%.%)")
	if not tr then return end
	out:metric("tps", tonumber(tps), "tps")
	out:metric("transactions", tonumber(tr), "")
	local q, qps = text:match("\n%s*queries:%s+(%d+)%s+%(([%d.]+) per sec%.%)")
	if q then
		out:metric("qps", tonumber(qps), "qps")
		out:metric("queries", tonumber(q), "")
	end
	local performed = text:match("queries performed:\n(.-)\n%s*total:")
	if performed then
		for _, k in ipairs({"read", "write", "other"}) do
			local v = num(performed, k .. ":%s+(%d+)")
			if v then out:metric(k == "other" and k or k .. "s", v, "") end
		end
	end
	local e, es = text:match("ignored errors:%s+(%d+)%s+%(([%d.]+) per sec%.%)")
	if e then
		out:metric("errors", tonumber(e), "")
		out:metric("errors_s", tonumber(es), "1/s")
	end
	local r, rs = text:match("reconnects:%s+(%d+)%s+%(([%d.]+) per sec%.%)")
	if r then
		out:metric("reconnects", tonumber(r), "")
		out:metric("reconnects_s", tonumber(rs), "1/s")
	end
end

local function parse_fileio(text, out)
	local ops = text:match("File operations:\n(.-)\n\n")
	if not ops then return end
	local r = num(ops, "reads/s:%s+([%d.]+)")
	local w = num(ops, "writes/s:%s+([%d.]+)")
	local f = num(ops, "fsyncs/s:%s+([%d.]+)")
	if r and w then out:metric("iops", r + w, "IOPS") end
	if r then out:metric("reads_s", r, "IOPS") end
	if w then out:metric("writes_s", w, "IOPS") end
	if f then out:metric("fsyncs_s", f, "1/s") end
	local rm = num(text, "read, MiB/s:%s+([%d.]+)")
	local wm = num(text, "written, MiB/s:%s+([%d.]+)")
	if rm and wm then out:metric("mib_s", rm + wm, "MiB/s") end
	if rm then out:metric("read_mib_s", rm, "MiB/s") end
	if wm then out:metric("write_mib_s", wm, "MiB/s") end
end

local function parse_memory(text, out)
	local n, per = text:match("Total operations: (%d+) %(([%d.]+) per second%)")
	if n then
		out:metric("ops_s", tonumber(per), "1/s")
		out:metric("operations", tonumber(n), "")
	end
	local mib, mibs = text:match("\n([%d.]+) MiB transferred %(([%d.]+) MiB/sec%)")
	if mib then
		out:metric("mib_s", tonumber(mibs), "MiB/s")
		out:metric("mib", tonumber(mib), "MiB")
	end
end

local function parse_progress(text, out)
	for line in text:gmatch("\n(%[ *[%d.]+s %][^\n]*)") do
		local t = tonumber(line:match("^%[ *([%d.]+)s %]"))
		local tps = num(line, " tps: ([%d.]+)")
		local qps = num(line, " qps: ([%d.]+)")
		local eps = num(line, " eps: ([%d.]+)")
		local err = num(line, " err/s: ([%d.]+)")
		local pct, lat = line:match(" lat %(ms,(%d+)%%%): ([%d.]+)")
		if tps then out:sample("tps", "tps", t, tps) end
		if qps then out:sample("qps", "qps", t, qps) end
		if eps then out:sample("events_s", "1/s", t, eps) end
		if err then out:sample("errors_s", "1/s", t, err) end
		if pct then out:sample("lat_p" .. pct .. "_ms", "ms", t, tonumber(lat)) end
	end
end

function M.parse(text, out)
	text = "\n" .. text
	local total = num(text, "\n%s*total time:%s+([%d.]+)s")
	if not total then
		error("sysbench: no 'General statistics' (total time) in the output (did sysbench fail, "
			.. "or is this not `sysbench ... run`?)", 0)
	end
	-- Rates first: the exec step's headline takes the first one it knows.
	parse_oltp(text, out)
	parse_fileio(text, out)
	parse_memory(text, out)
	local eps = num(text, "events per second:%s+([%d.]+)")
	if eps then out:metric("events_s", eps, "1/s") end
	out:metric("total_time_s", total, "s")
	local ev = num(text, "total number of events:%s+(%d+)")
	if ev then out:metric("events", ev, "") end
	local th = num(text, "Number of threads: (%d+)")
	if th then out:metric("threads", th, "") end
	local lat = text:match("\nLatency %(ms%):\n(.-)\n\n")
	if lat then
		for _, k in ipairs({{"min", "lat_min_ms"}, {"avg", "lat_mean_ms"}, {"max", "lat_max_ms"},
			{"sum", "lat_sum_ms"}}) do
			local v = num(lat, "\n?%s*" .. k[1] .. ":%s+([%d.]+)")
			if v then out:metric(k[2], v, "ms") end
		end
		local pct, v = lat:match("(%d+)th percentile:%s+([%d.]+)")
		if pct then out:metric("lat_p" .. pct .. "_ms", tonumber(v), "ms") end
	end
	parse_progress(text, out)
end

return M
