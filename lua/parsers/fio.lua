-- parsers.fio: `fio --output-format=json` (fio 3.x).
--
-- For each direction (read, write, trim) that moved data, summed over the
-- jobs: <dir>_iops, <dir>_mb_s (10^6 bytes/s), <dir>_mib_s, <dir>_bytes,
-- <dir>_lat_mean_us (weighted by I/O count), <dir>_lat_min_us,
-- <dir>_lat_max_us, <dir>_lat_p50_us, _p90_, _p99_, _p999_ (completion
-- latency percentiles, or total latency with lat_percentiles=1; with several
-- jobs without group_reporting, the worst job's).
-- Totals over the directions: iops, mb_s, mib_s, bytes, seconds (longest
-- job runtime), lat_mean_us, lat_min_us, lat_max_us; percentiles only when
-- a single direction moved data. cpu_usr and cpu_sys: the jobs' mean, in %.
-- Text before the JSON document (fio's notes and warnings) is skipped.
local json = require("json")

local M = {}

local pct = {{"p50", "50.000000"}, {"p90", "90.000000"}, {"p99", "99.000000"}, {"p999", "99.900000"}}

local function field(t, k)
	local v = type(t) == "table" and t[k] or nil
	if v == json.null then return nil end
	return v
end

local function direction(jobs, dir)
	local a = {bytes = 0, bw = 0, iops = 0, ios = 0, latsum = 0, min = math.huge, max = 0, runtime = 0, p = {}}
	for _, job in ipairs(jobs) do
		local d = field(job, dir)
		local bytes = d and field(d, "io_bytes") or 0
		if bytes > 0 then
			local lat = field(d, "lat_ns") or {}
			local ios = field(d, "total_ios") or 0
			a.bytes = a.bytes + bytes
			a.bw = a.bw + (field(d, "bw_bytes") or 0)
			a.iops = a.iops + (field(d, "iops") or 0)
			a.ios = a.ios + ios
			a.latsum = a.latsum + (field(lat, "mean") or 0) * ios
			if (field(lat, "min") or 0) > 0 then a.min = math.min(a.min, lat.min) end
			a.max = math.max(a.max, field(lat, "max") or 0)
			a.runtime = math.max(a.runtime, field(d, "runtime") or 0)
			local perc = field(lat, "percentile") or field(field(d, "clat_ns"), "percentile")
			if type(perc) == "table" then
				for _, p in ipairs(pct) do
					local v = field(perc, p[2])
					if v then a.p[p[1]] = math.max(a.p[p[1]] or 0, v) end
				end
			end
		end
	end
	if a.bytes == 0 then return nil end
	return a
end

local function emit(out, prefix, a, with_pct)
	out:metric(prefix .. "iops", a.iops, "IOPS")
	out:metric(prefix .. "mb_s", a.bw / 1e6, "MB/s")
	out:metric(prefix .. "mib_s", a.bw / 2 ^ 20, "MiB/s")
	out:metric(prefix .. "bytes", a.bytes, "bytes")
	if a.ios > 0 then out:metric(prefix .. "lat_mean_us", a.latsum / a.ios / 1e3, "us") end
	if a.min < math.huge then out:metric(prefix .. "lat_min_us", a.min / 1e3, "us") end
	if a.max > 0 then out:metric(prefix .. "lat_max_us", a.max / 1e3, "us") end
	if with_pct then
		for _, p in ipairs(pct) do
			if a.p[p[1]] then out:metric(prefix .. "lat_" .. p[1] .. "_us", a.p[p[1]] / 1e3, "us") end
		end
	end
end

function M.parse(text, out)
	local start = text:find("^%s*{") or text:find("\n{")
	if not start then error("fio: no JSON document in the output (use --output-format=json)", 0) end
	local ok, doc = pcall(json.decode, text, start)
	if not ok then error("fio: " .. tostring(doc), 0) end
	local jobs = field(doc, "jobs")
	if type(jobs) ~= "table" or #jobs == 0 then error("fio: the JSON output has no jobs", 0) end
	for _, job in ipairs(jobs) do
		local e = field(job, "error") or 0
		if e ~= 0 then error(("fio: job '%s' failed with error %d"):format(field(job, "jobname") or "?", e), 0) end
	end
	if field(doc, "fio version") then out:info("fio_version", doc["fio version"]) end
	local dirs, total = {}, {bytes = 0, bw = 0, iops = 0, ios = 0, latsum = 0, min = math.huge, max = 0, runtime = 0}
	for _, dir in ipairs({"read", "write", "trim"}) do
		local a = direction(jobs, dir)
		if a then
			dirs[#dirs + 1] = a
			emit(out, dir .. "_", a, true)
			for _, k in ipairs({"bytes", "bw", "iops", "ios", "latsum"}) do total[k] = total[k] + a[k] end
			total.min = math.min(total.min, a.min)
			total.max = math.max(total.max, a.max)
			total.runtime = math.max(total.runtime, a.runtime)
		end
	end
	if #dirs == 0 then error("fio: no job moved any data", 0) end
	total.p = dirs[1].p
	emit(out, "", total, #dirs == 1)
	out:metric("seconds", total.runtime / 1e3, "s")
	local usr, sys = 0, 0
	for _, job in ipairs(jobs) do
		usr = usr + (field(job, "usr_cpu") or 0)
		sys = sys + (field(job, "sys_cpu") or 0)
	end
	out:metric("cpu_usr", usr / #jobs, "%")
	out:metric("cpu_sys", sys / #jobs, "%")
end

return M
