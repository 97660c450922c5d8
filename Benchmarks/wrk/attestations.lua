-- wrk script for scripts/bench-server: every request asks for a different person's attestation.
--
--   wrk -t2 -c64 -d10s --latency -s Benchmarks/wrk/attestations.lua http://127.0.0.1:PORT/ \
--       -- tokens=FILE [threads=2] [budget=N] [markers=DIR]
--
-- tokens   one link token per line (the part after `t=`); requests go round them in order,
--          each wrk thread starting at its own offset, so no two consecutive requests (and no two
--          threads at the same moment) ask for the same person.
-- threads  the -t value, only to spread the threads' starting offsets evenly.
-- budget   if > 0, each thread stops itself after that many responses (wrk.thread:stop()) and
--          writes DIR/thread-ID; wrk itself still runs until -d or SIGINT, which the caller sends
--          once every thread has written its file.
--
-- done() prints one `bench.KEY VALUE` line per result for scripts: requests, errors_connect,
-- errors_read, errors_write, errors_timeout, errors_status (wrk's count of status > 399),
-- errors (connect + read + write + timeout), non2xx (responses whose status is not 200, counted in
-- response()), duration_s, rps, p50_ms, p90_ms, p99_ms, max_ms.

local threads = {}
local thread_count = 0

function setup(thread)
  thread_count = thread_count + 1
  thread:set("id", thread_count)
  table.insert(threads, thread)
end

local function options(args)
  local found = {}
  for i = 1, #args do
    local key, value = args[i]:match("^([%a_]+)=(.*)$")
    if not key then error("attestations.lua: argument KEY=VALUE attendu, reçu « " .. args[i] .. " »") end
    found[key] = value
  end
  return found
end

function init(args)
  local opts = options(args)
  assert(opts.tokens, "attestations.lua: tokens=FILE manquant")
  local requests = {}
  for line in io.lines(opts.tokens) do
    if line ~= "" then
      -- Built once here: request() only picks the next one.
      requests[#requests + 1] = wrk.format("GET", "/attestation.pdf?t=" .. line .. "&offset=-20")
    end
  end
  assert(#requests >= 2, "attestations.lua: au moins deux jetons attendus dans " .. opts.tokens)
  prepared = requests
  count = #requests
  local spread = math.max(tonumber(opts.threads) or 2, 1)
  position = ((id - 1) * math.floor(count / spread)) % count
  budget = tonumber(opts.budget) or 0
  markers = opts.markers
  responses = 0
  non2xx = 0
  stopped = false
end

function request()
  position = position % count + 1
  return prepared[position]
end

function response(status, headers, body)
  if status ~= 200 then non2xx = non2xx + 1 end
  if stopped then return end
  responses = responses + 1
  if budget > 0 and responses >= budget then
    stopped = true
    if markers then
      local file = assert(io.open(markers .. "/thread-" .. id, "w"))
      file:write(responses, "\n")
      file:close()
    end
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local non2xx_total = 0
  for _, thread in ipairs(threads) do
    non2xx_total = non2xx_total + (thread:get("non2xx") or 0)
  end
  local e = summary.errors
  local seconds = summary.duration / 1e6
  local function line(key, format, value) io.write(string.format("bench.%s " .. format .. "\n", key, value)) end
  line("requests", "%d", summary.requests)
  line("errors_connect", "%d", e.connect)
  line("errors_read", "%d", e.read)
  line("errors_write", "%d", e.write)
  line("errors_timeout", "%d", e.timeout)
  line("errors_status", "%d", e.status)
  line("errors", "%d", e.connect + e.read + e.write + e.timeout)
  line("non2xx", "%d", non2xx_total)
  line("duration_s", "%.3f", seconds)
  line("rps", "%.1f", seconds > 0 and summary.requests / seconds or 0)
  line("p50_ms", "%.2f", latency:percentile(50) / 1000)
  line("p90_ms", "%.2f", latency:percentile(90) / 1000)
  line("p99_ms", "%.2f", latency:percentile(99) / 1000)
  line("max_ms", "%.2f", latency.max / 1000)
end
