-- parsers.pgbench: the report of pgbench (PostgreSQL 15; older and newer
-- versions print the same lines), of `pgbench -i`, and its --progress lines.
--
-- Run metrics: tps (without connection time), transactions, failed,
-- lat_mean_ms, lat_stddev_ms (with -P or --rate), conn_ms (initial
-- connection time), clients, threads, scale, duration_s; with -r
-- stmt1_ms, stmt2_ms, ... (per-statement mean latency; the statement text
-- goes to info stmt1, ...). Progress lines become the series tps (tps) and
-- lat_mean_ms (ms) over time.
-- Init (`pgbench -i`): init_s, and init_<phase>_s for each phase pgbench
-- lists (init_drop_tables_s, init_client_side_generate_s, ...).
local M = {}

local function num(text, pat)
	local v = text:match(pat)
	return v and tonumber(v)
end

local function parse_init(text, out)
	local total, phases = text:match("done in ([%d.]+) s %(([^)]*)%)")
	if not total then return false end
	out:metric("init_s", tonumber(total), "s")
	for name, secs in phases:gmatch("([%a][%a%- ]-) ([%d.]+) s") do
		local key = name:gsub("^%s+", ""):gsub("[%s%-]+", "_"):lower()
		out:metric("init_" .. key .. "_s", tonumber(secs), "s")
	end
	return true
end

-- The summary's optional lines: metric, pattern, unit.
local summary_lines = {
	{"lat_mean_ms", "latency average = ([%d.]+) ms", "ms"},
	{"lat_stddev_ms", "latency stddev = ([%d.]+) ms", "ms"},
	{"conn_ms", "initial connection time = ([%d.]+) ms", "ms"},
	{"clients", "number of clients: (%d+)", ""},
	{"threads", "number of threads: (%d+)", ""},
	{"scale", "scaling factor: (%d+)", ""},
	{"duration_s", "\nduration: (%d+) s", "s"},
}

function M.parse(text, out)
	local found = parse_init(text, out)
	local tps = num(text, "tps = ([%d.]+) %(without initial connection time%)")
		or num(text, "tps = ([%d.]+) %(excluding connections establishing%)")
		or num(text, "\ntps = ([%d.]+)")
	if not tps then
		if found then return end
		error("pgbench: no 'tps = ...' line in the output (did pgbench fail?)", 0)
	end
	out:metric("tps", tps, "tps")
	local done = text:match("number of transactions actually processed: (%d+)")
	if done then out:metric("transactions", tonumber(done), "") end
	local failed = num(text, "number of failed transactions: (%d+)")
	out:metric("failed", failed or 0, "")
	for _, m in ipairs(summary_lines) do
		local v = num(text, m[2])
		if v then out:metric(m[1], v, m[3]) end
	end
	for t, tp, lat in text:gmatch("progress: ([%d.]+) s, ([%d.]+) tps, lat ([%d.]+) ms") do
		out:sample("tps", "tps", tonumber(t), tonumber(tp))
		out:sample("lat_mean_ms", "ms", tonumber(t), tonumber(lat))
	end
	local stmts = text:match("statement latencies in milliseconds[^\n]*\n(.*)")
	if stmts then
		local i = 0
		for line in stmts:gmatch("[^\n]+") do
			local ms, rest = line:match("^%s+([%d.]+)%s+(.*)$")
			if not ms then break end
			-- pgbench 15 adds a failures column before the statement
			local fails, stmt = rest:match("^(%d+)%s+(.*)$")
			i = i + 1
			out:metric("stmt" .. i .. "_ms", tonumber(ms), "ms")
			out:info("stmt" .. i, fails and stmt or rest)
		end
	end
end

return M
