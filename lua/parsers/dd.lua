-- parsers.dd: the summary dd prints on stderr.
--
--   16384+0 records out
--   1073741824 bytes (1.1 GB, 1.0 GiB) copied, 2.75682 s, 389 MB/s
--
-- Metrics: bytes, seconds, mb_s (10^6 bytes/s, computed from bytes and
-- seconds, so more digits than dd prints), mib_s. When the text holds
-- several transfers (a loop of dd runs): bytes and seconds are totals, mb_s
-- and mib_s the mean of the runs' rates, plus runs, mb_s_min, mb_s_max and
-- mb_s_run1, mb_s_run2, ... status=progress lines are ignored.
local M = {}

local rate_mult = {["B/s"] = 1, ["kB/s"] = 1e3, ["KB/s"] = 1e3, ["MB/s"] = 1e6, ["GB/s"] = 1e9, ["TB/s"] = 1e12,
	["KiB/s"] = 1024, ["MiB/s"] = 2 ^ 20, ["GiB/s"] = 2 ^ 30, ["TiB/s"] = 2 ^ 40}

local function runs_in(text, anchored)
	local runs = {}
	local pat = "(%d+) bytes?[^\n\r]-copied, ([%d.eE+-]+) s, ([%d.eE+-]+) ([%a]+/s)"
	if anchored then pat = "records out%s+" .. pat end
	for bytes, secs, rate, unit in text:gmatch(pat) do
		local b, s = tonumber(bytes), tonumber(secs)
		local bps
		if s and s > 0 then
			bps = b / s
		elseif tonumber(rate) and rate_mult[unit] then
			bps = tonumber(rate) * rate_mult[unit]
		end
		if b and s and bps then runs[#runs + 1] = {bytes = b, seconds = s, bps = bps} end
	end
	return runs
end

function M.parse(text, out)
	local runs = runs_in(text, true)
	if #runs == 0 then runs = runs_in(text, false) end
	if #runs == 0 then
		error("dd: no summary line ('N bytes ... copied, T s, R MB/s') in the output", 0)
	end
	local bytes, secs, sum, lo, hi = 0, 0, 0, math.huge, -math.huge
	for i, r in ipairs(runs) do
		bytes = bytes + r.bytes
		secs = secs + r.seconds
		local mbs = r.bps / 1e6
		sum = sum + mbs
		lo, hi = math.min(lo, mbs), math.max(hi, mbs)
		if #runs > 1 then out:metric("mb_s_run" .. i, mbs, "MB/s") end
	end
	local mean = sum / #runs
	out:metric("bytes", bytes, "bytes")
	out:metric("seconds", secs, "s")
	out:metric("mb_s", mean, "MB/s")
	out:metric("mib_s", mean * 1e6 / 2 ^ 20, "MiB/s")
	if #runs > 1 then
		out:metric("runs", #runs, "")
		out:metric("mb_s_min", lo, "MB/s")
		out:metric("mb_s_max", hi, "MB/s")
	end
end

return M
