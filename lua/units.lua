-- units: sizes and durations as scenarios write them, by the engine's own
-- rules (engine/base/units.c, the C module core.units): sizes are binary,
-- 4k = 4K = 4kB = 4KiB = 4096, likewise M, G, T, P; a bare number or a
-- trailing B alone is bytes. Durations: ns, us, ms, s, sec, m, min, h, d; a
-- bare number is seconds.
--
--   units.parse_size("4KiB") -> 4096        units.format_size(1536) -> "1.5 KiB"
--   units.parse_duration("250ms") -> 0.25   units.format_duration(0.25) -> "250 ms"
--   units.format_rate(389e6) -> "389 MB/s"  (decimal, as dd prints)
-- parse_* return nil and a reason for text they cannot read.
local c = require("core.units")

local M = {
	parse_size = c.parse_size,
	parse_duration = c.parse_duration,
	format_size = c.format_size,
	format_duration = c.format_duration,
}

local function trim(x)
	local t = ("%.2f"):format(x):gsub("0+$", ""):gsub("%.$", "")
	return t
end

-- Bytes per second as dd prints rates: decimal kB/s, MB/s, GB/s.
function M.format_rate(bps)
	local names = {"B/s", "kB/s", "MB/s", "GB/s", "TB/s"}
	local v, i = bps, 1
	while math.abs(v) >= 1000 and i < #names do
		v = v / 1000
		i = i + 1
	end
	return trim(v) .. " " .. names[i]
end

return M
