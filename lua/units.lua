-- units: sizes and durations as scenarios write them (the same rules as the
-- engine): sizes are binary, 4k = 4K = 4kB = 4KiB = 4096, likewise M, G, T;
-- a bare number or a trailing B alone is bytes. Durations: us, ms, s, min,
-- h; a bare number is seconds.
--
--   units.parse_size("4KiB") -> 4096        units.format_size(1536) -> "1.5 KiB"
--   units.parse_duration("250ms") -> 0.25   units.format_duration(0.25) -> "250 ms"
--   units.format_rate(389e6) -> "389 MB/s"  (decimal, as dd prints)
-- parse_* return nil and a reason for text they cannot read.
local M = {}

local size_mult = {
	[""] = 1, b = 1,
	k = 2 ^ 10, kb = 2 ^ 10, kib = 2 ^ 10,
	m = 2 ^ 20, mb = 2 ^ 20, mib = 2 ^ 20,
	g = 2 ^ 30, gb = 2 ^ 30, gib = 2 ^ 30,
	t = 2 ^ 40, tb = 2 ^ 40, tib = 2 ^ 40,
}

local dur_mult = {[""] = 1, us = 1e-6, ms = 1e-3, s = 1, min = 60, h = 3600}

local function split(s)
	if type(s) == "number" then return s, "" end
	if type(s) ~= "string" then return nil end
	local num, unit = s:match("^%s*(%d+%.?%d*)%s*(%a*)%s*$")
	if not num then
		num, unit = s:match("^%s*(%.%d+)%s*(%a*)%s*$")
	end
	if not num then return nil end
	return tonumber(num), unit:lower()
end

function M.parse_size(s)
	local v, unit = split(s)
	if not v then return nil, ("'%s' is not a size"):format(tostring(s)) end
	local m = size_mult[unit]
	if not m then return nil, ("unknown size unit '%s'"):format(unit) end
	local b = v * m
	if b ~= math.floor(b) then return nil, ("'%s' is not a whole number of bytes"):format(s) end
	return math.tointeger(b) or b
end

function M.parse_duration(s)
	local v, unit = split(s)
	if not v then return nil, ("'%s' is not a duration"):format(tostring(s)) end
	local m = dur_mult[unit]
	if not m then return nil, ("unknown duration unit '%s'"):format(unit) end
	return v * m
end

local function trim(x)
	local t = ("%.2f"):format(x):gsub("0+$", ""):gsub("%.$", "")
	return t
end

function M.format_size(bytes)
	local names = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"}
	local v, i = bytes, 1
	while math.abs(v) >= 1024 and i < #names do
		v = v / 1024
		i = i + 1
	end
	return trim(v) .. " " .. names[i]
end

function M.format_duration(s)
	local a = math.abs(s)
	if a >= 3600 then return trim(s / 3600) .. " h" end
	if a >= 60 then return trim(s / 60) .. " min" end
	if a >= 1 or a == 0 then return trim(s) .. " s" end
	if a >= 1e-3 then return trim(s * 1e3) .. " ms" end
	return trim(s * 1e6) .. " us"
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
