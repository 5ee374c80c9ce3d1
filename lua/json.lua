-- json: a small JSON decoder (RFC 8259), enough for tool output such as
-- `fio --output-format=json`.
--
--   json.decode(text [, start]) -> value, next_position
-- Objects become tables with string keys, arrays lists (1-based), null the
-- sentinel json.null (so that arrays keep their length). Numbers are Lua
-- floats, or integers when written without fraction and exponent and they
-- fit. Errors name the line and column: "json: line 3, col 7: expected ','".
local M = {}

M.null = setmetatable({}, {__tostring = function() return "null" end})

local byte, sub, find, char = string.byte, string.sub, string.find, string.char

local function fail(s, i, what)
	local line, col = 1, 1
	for j = 1, i - 1 do
		if byte(s, j) == 10 then
			line, col = line + 1, 1
		else
			col = col + 1
		end
	end
	error(("json: line %d, col %d: %s"):format(line, col, what), 0)
end

local function skip(s, i)
	local _, e = find(s, "^[ \t\r\n]*", i)
	return e + 1
end

local decode_value

local escapes = {[34] = '"', [92] = "\\", [47] = "/", [98] = "\b", [102] = "\f", [110] = "\n", [114] = "\r", [116] = "\t"}

local function utf8_of(cp)
	return utf8.char(cp)
end

local function decode_string(s, i)
	-- s[i] is the opening quote
	local parts, n = {}, 0
	local j = i + 1
	while true do
		local a, b = find(s, '^[^"\\%c]+', j)
		if a then
			n = n + 1
			parts[n] = sub(s, a, b)
			j = b + 1
		end
		local c = byte(s, j)
		if c == 34 then
			return table.concat(parts), j + 1
		elseif c == 92 then
			local e = byte(s, j + 1)
			if e == 117 then
				local hex = sub(s, j + 2, j + 5)
				if not hex:match("^%x%x%x%x$") then fail(s, j, "bad \\u escape") end
				local cp = tonumber(hex, 16)
				j = j + 6
				if cp >= 0xD800 and cp <= 0xDBFF and sub(s, j, j + 1) == "\\u" then
					local lo = tonumber(sub(s, j + 2, j + 5), 16)
					if lo and lo >= 0xDC00 and lo <= 0xDFFF then
						cp = 0x10000 + (cp - 0xD800) * 0x400 + (lo - 0xDC00)
						j = j + 6
					end
				end
				n = n + 1
				parts[n] = utf8_of(cp)
			elseif escapes[e] then
				n = n + 1
				parts[n] = escapes[e]
				j = j + 2
			else
				fail(s, j, "bad escape in string")
			end
		elseif c == nil then
			fail(s, i, "unterminated string")
		else
			fail(s, j, "control character in string")
		end
	end
end

local function decode_number(s, i)
	local a, b = find(s, "^-?%d+%.?%d*[eE]?[-+]?%d*", i)
	if not a then fail(s, i, "expected a value") end
	local text = sub(s, a, b)
	local v
	if find(text, "^-?%d+$") then v = math.tointeger(tonumber(text)) end
	v = v or tonumber(text)
	if not v then fail(s, i, "bad number '" .. text .. "'") end
	return v, b + 1
end

local function decode_array(s, i, depth)
	local t, n = {}, 0
	i = skip(s, i + 1)
	if byte(s, i) == 93 then return t, i + 1 end
	while true do
		local v
		v, i = decode_value(s, i, depth)
		n = n + 1
		t[n] = v
		i = skip(s, i)
		local c = byte(s, i)
		if c == 93 then return t, i + 1 end
		if c ~= 44 then fail(s, i, "expected ',' or ']'") end
		i = skip(s, i + 1)
	end
end

local function decode_object(s, i, depth)
	local t = {}
	i = skip(s, i + 1)
	if byte(s, i) == 125 then return t, i + 1 end
	while true do
		if byte(s, i) ~= 34 then fail(s, i, "expected a string key") end
		local k
		k, i = decode_string(s, i)
		i = skip(s, i)
		if byte(s, i) ~= 58 then fail(s, i, "expected ':'") end
		local v
		v, i = decode_value(s, skip(s, i + 1), depth)
		t[k] = v
		i = skip(s, i)
		local c = byte(s, i)
		if c == 125 then return t, i + 1 end
		if c ~= 44 then fail(s, i, "expected ',' or '}'") end
		i = skip(s, i + 1)
	end
end

function decode_value(s, i, depth)
	i = skip(s, i)
	if depth > 200 then fail(s, i, "nested too deeply") end
	local c = byte(s, i)
	if c == 123 then return decode_object(s, i, depth + 1) end
	if c == 91 then return decode_array(s, i, depth + 1) end
	if c == 34 then return decode_string(s, i) end
	if sub(s, i, i + 3) == "true" then return true, i + 4 end
	if sub(s, i, i + 4) == "false" then return false, i + 5 end
	if sub(s, i, i + 3) == "null" then return M.null, i + 4 end
	if c == nil then fail(s, i, "unexpected end of input") end
	return decode_number(s, i)
end

function M.decode(s, start)
	if type(s) ~= "string" then error("json.decode: expected a string, got " .. type(s), 2) end
	return decode_value(s, start or 1, 0)
end

return M
