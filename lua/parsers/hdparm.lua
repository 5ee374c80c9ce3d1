-- parsers.hdparm: `hdparm -t` (and -T, --direct) timings.
--
--   Timing buffered disk reads: 1422 MB in  3.00 seconds = 473.59 MB/sec
--   Timing cached reads:   36144 MB in  1.95 seconds = 18528.98 MB/sec
--
-- hdparm's "MB" is 2^20 bytes. Metrics: mib_s (the figure hdparm prints),
-- mb_s (10^6 bytes/s, like dd's), mib, seconds; the cached-read line (-T)
-- gives cached_mib_s and cached_mb_s. Several devices: the mean, and runs.
local M = {}

local mult = {kB = 1 / 1024, KB = 1 / 1024, MB = 1, GB = 1024}

local function collect(text, what)
	local runs = {}
	local pat = "Timing " .. what .. ":%s+([%d.]+) (%a+) in%s+([%d.]+) seconds%s*=%s*([%d.]+) (%a+)/sec"
	for amount, aunit, secs, rate, runit in text:gmatch(pat) do
		if mult[aunit] and mult[runit] then
			runs[#runs + 1] = {mib = tonumber(amount) * mult[aunit], seconds = tonumber(secs),
				mib_s = tonumber(rate) * mult[runit]}
		end
	end
	return runs
end

local function mean(runs, k)
	local s = 0
	for _, r in ipairs(runs) do s = s + r[k] end
	return s / #runs
end

function M.parse(text, out)
	local disk = collect(text, "[%u_]*%s*[%a]* ?disk reads")
	local cached = collect(text, "cached reads")
	if #disk == 0 and #cached == 0 then
		error("hdparm: no 'Timing ... reads: N MB in T seconds = R MB/sec' line in the output", 0)
	end
	if #disk > 0 then
		local m = mean(disk, "mib_s")
		out:metric("mib_s", m, "MiB/s")
		out:metric("mb_s", m * 2 ^ 20 / 1e6, "MB/s")
		out:metric("mib", mean(disk, "mib"), "MiB")
		out:metric("seconds", mean(disk, "seconds"), "s")
		if #disk > 1 then out:metric("runs", #disk, "") end
	end
	if #cached > 0 then
		local m = mean(cached, "mib_s")
		out:metric("cached_mib_s", m, "MiB/s")
		out:metric("cached_mb_s", m * 2 ^ 20 / 1e6, "MB/s")
	end
end

return M
