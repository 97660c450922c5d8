-- wrk script for scripts/stress-soak: a budget of exactly N responses, each a different person's
-- PDF, each checked.
--
--   wrk -t2 -c64 -d600s --latency -s Benchmarks/wrk/soak.lua http://127.0.0.1:PORT/ \
--       -- tokens=FILE threads=2 budget=N markers=DIR [start=K]
--
-- tokens   one link token per line (the part after `t=`); requests go round them in order, each
--          wrk thread starting at its own offset (shifted by `start`, so that consecutive runs do
--          not repeat the same people in the same order).
-- threads  the -t value: the budget is shared out between the threads (the first N mod threads
--          threads take one more), so their counts add up to N exactly.
-- budget   N, the responses to count. A thread that has counted its share stops itself
--          (wrk.thread:stop()) and writes DIR/thread-ID; wrk's main thread still sleeps out -d,
--          so the caller sends SIGINT once every thread has written its file.
-- start    an offset into the token list (default 0).
--
-- Responses that arrive in the same event-loop turn as the last counted one, before the thread
-- has stopped, are not counted but are still checked (`extra`).
--
-- A response is good when its status is 200, its body starts with `%PDF-` and ends with `%%EOF`
-- (and a line end). done() prints one `soak.KEY VALUE` line per result: counted, extra,
-- non200, notpdf, requests (wrk's own count, counted + extra), errors_connect, errors_read,
-- errors_write, errors_timeout, errors (their sum), duration_s, rps, p50_ms, p90_ms, p99_ms,
-- max_ms.

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
    if not key then error("soak.lua : argument CLÉ=VALEUR attendu, reçu « " .. args[i] .. " »") end
    found[key] = value
  end
  return found
end

function init(args)
  local opts = options(args)
  assert(opts.tokens, "soak.lua : tokens=FICHIER manquant")
  local requests = {}
  for line in io.lines(opts.tokens) do
    if line ~= "" then
      -- Built once here: request() only picks the next one.
      requests[#requests + 1] = wrk.format("GET", "/attestation.pdf?t=" .. line .. "&offset=-20")
    end
  end
  assert(#requests >= 2, "soak.lua : au moins deux jetons attendus dans " .. opts.tokens)
  prepared = requests
  count = #requests
  local spread = math.max(tonumber(opts.threads) or 1, 1)
  local start = tonumber(opts.start) or 0
  position = (start + (id - 1) * math.floor(count / spread)) % count
  local total = tonumber(opts.budget) or 0
  assert(total >= spread, "soak.lua : budget=N attendu, au moins une réponse par thread")
  budget = math.floor(total / spread) + ((id <= total % spread) and 1 or 0)
  markers = opts.markers
  counted = 0
  extra = 0
  non200 = 0
  notpdf = 0
  stopped = false
end

function request()
  position = position % count + 1
  return prepared[position]
end

function response(status, headers, body)
  if status ~= 200 then
    non200 = non200 + 1
  elseif body:sub(1, 5) ~= "%PDF-" or not body:sub(-8):find("%%EOF", 1, true) then
    notpdf = notpdf + 1
  end
  if stopped then
    extra = extra + 1
    return
  end
  counted = counted + 1
  if counted >= budget then
    stopped = true
    if markers then
      local file = assert(io.open(markers .. "/thread-" .. id, "w"))
      file:write(counted, "\n")
      file:close()
    end
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local sums = { counted = 0, extra = 0, non200 = 0, notpdf = 0 }
  for _, thread in ipairs(threads) do
    for key in pairs(sums) do sums[key] = sums[key] + (thread:get(key) or 0) end
  end
  local e = summary.errors
  local seconds = summary.duration / 1e6
  local function line(key, format, value) io.write(string.format("soak.%s " .. format .. "\n", key, value)) end
  line("counted", "%d", sums.counted)
  line("extra", "%d", sums.extra)
  line("non200", "%d", sums.non200)
  line("notpdf", "%d", sums.notpdf)
  line("requests", "%d", summary.requests)
  line("errors_connect", "%d", e.connect)
  line("errors_read", "%d", e.read)
  line("errors_write", "%d", e.write)
  line("errors_timeout", "%d", e.timeout)
  line("errors", "%d", e.connect + e.read + e.write + e.timeout)
  line("duration_s", "%.3f", seconds)
  line("rps", "%.1f", seconds > 0 and summary.requests / seconds or 0)
  line("p50_ms", "%.2f", latency:percentile(50) / 1000)
  line("p90_ms", "%.2f", latency:percentile(90) / 1000)
  line("p99_ms", "%.2f", latency:percentile(99) / 1000)
  line("max_ms", "%.2f", latency.max / 1000)
end
