-- parsers.benchsh: the "I/O speed" part of bench.sh (teddysun's bench.sh,
-- which runs `dd bs=64k count=16k conv=fdatasync` three times):
--
--   I/O speed(1st run) : 391 MB/s
--   I/O speed(2nd run) : 388 MB/s
--   I/O speed(3rd run) : 389 MB/s
--   Average I/O speed : 389.3 MB/s
--
-- (newer versions print "I/O Speed(average) : ..." and may use GB/s).
-- Metrics: mb_s (the average bench.sh prints, or the mean of the runs),
-- mb_s_run1, mb_s_run2, ..., runs. dd's MB are 10^6 bytes; GB/s and KB/s
-- figures are converted to MB/s.
local M = {}

local mult = {["KB/s"] = 1e-3, ["kB/s"] = 1e-3, ["MB/s"] = 1, ["GB/s"] = 1e3, ["TB/s"] = 1e6}

function M.parse(text, out)
	local n, sum = 0, 0
	for v, unit in text:gmatch("I/O [Ss]peed%s*%(%s*%w+ run%s*%)%s*:%s*([%d.]+)%s*([%a]+/s)") do
		if mult[unit] then
			n = n + 1
			local mbs = tonumber(v) * mult[unit]
			sum = sum + mbs
			out:metric("mb_s_run" .. n, mbs, "MB/s")
		end
	end
	local avg, unit = text:match("Average I/O [Ss]peed%s*:%s*([%d.]+)%s*([%a]+/s)")
	if not avg then -- newer bench.sh: "I/O Speed(average) : 1234.5 MB/s"
		avg, unit = text:match("I/O [Ss]peed%s*%(%s*average%s*%)%s*:%s*([%d.]+)%s*([%a]+/s)")
	end
	if avg and mult[unit] then
		out:metric("mb_s", tonumber(avg) * mult[unit], "MB/s")
	elseif n > 0 then
		out:metric("mb_s", sum / n, "MB/s")
	else
		error("bench.sh: no 'I/O speed' lines in the output", 0)
	end
	if n > 0 then out:metric("runs", n, "") end
end

return M
