-- What attestations.lua (scripts/stress/bench-server.sh, stress-scaleout) and soak.lua (stress-soak) share:
-- every request a different person's PDF, each wrk thread starting at its own place in the list
-- of tokens, an optional budget of responses after which a thread stops, and the results printed
-- as `PREFIX.KEY VALUE` lines for the scripts (flood.lua, of stress-fairness, uses the options,
-- the threads and those lines only). A script loads it with
--
--   local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
--   package.path = here .. "?.lua;" .. package.path
--   local link_requests = require("link_requests")
--
-- wrk runs the script in one Lua state per thread plus one for setup() and done(); the values
-- done() gathers from the threads (thread:get) must be globals of the thread's state, so the
-- per-thread state here is global: id, prepared, count, position, budget, markers, stopped.

local link_requests = {}

local threads = {}

-- setup(thread), in wrk's main state: numbers the threads (the global `id` of each thread's state).
function link_requests.setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

-- The KEY=VALUE arguments after `--` on wrk's command line.
function link_requests.options(args, script)
  local found = {}
  for i = 1, #args do
    local key, value = args[i]:match("^([%a_]+)=(.*)$")
    if not key then error(script .. " : argument CLÉ=VALEUR attendu, reçu « " .. args[i] .. " »") end
    found[key] = value
  end
  return found
end

-- init(args) of a thread: the requests, one per token of the file, built once (request() only
-- picks the next); the thread starts `start` + (id - 1) × count / threads into the list, so no
-- two threads ask for the same person at the same moment.
function link_requests.prepare(opts, script, start)
  assert(opts.tokens, script .. " : tokens=FICHIER manquant")
  local requests = {}
  for line in io.lines(opts.tokens) do
    if line ~= "" then
      requests[#requests + 1] = wrk.format("GET", "/attestation.pdf?t=" .. line .. "&offset=-20")
    end
  end
  assert(#requests >= 2, script .. " : au moins deux jetons attendus dans " .. opts.tokens)
  prepared = requests
  count = #requests
  local spread = math.max(tonumber(opts.threads) or 1, 1)
  position = ((start or 0) + (id - 1) * math.floor(count / spread)) % count
  markers = opts.markers
  stopped = false
  return spread
end

function link_requests.request()
  position = position % count + 1
  return prepared[position]
end

-- After the thread's `budget`-th response: stops the thread (wrk.thread:stop()) and writes
-- MARKERS/thread-ID, since wrk's main thread still sleeps out -d; the caller sends SIGINT once
-- every thread has written its file. Returns true for the response that reached the budget.
function link_requests.count_response(responses)
  if stopped or budget <= 0 or responses < budget then return false end
  stopped = true
  if markers then
    local file = assert(io.open(markers .. "/thread-" .. id, "w"))
    file:write(responses, "\n")
    file:close()
  end
  wrk.thread:stop()
  return true
end

-- The threads, in setup()'s order (for done() to read values that do not add up).
function link_requests.threads()
  return threads
end

-- The sum over the threads of each of their global counters `names`.
function link_requests.sums(names)
  local sums = {}
  for _, name in ipairs(names) do sums[name] = 0 end
  for _, thread in ipairs(threads) do
    for _, name in ipairs(names) do sums[name] = sums[name] + (thread:get(name) or 0) end
  end
  return sums
end

-- done(): wrk's own counts, then the latency, as PREFIX.KEY VALUE lines: requests,
-- errors_connect, errors_read, errors_write, errors_timeout, errors_status (wrk's count of status
-- > 399), errors (connect + read + write + timeout), duration_s, rps, p50_ms, p90_ms, p99_ms,
-- max_ms; `counters` ({key, value} pairs) come right after requests.
function link_requests.report(prefix, summary, latency, counters)
  local e = summary.errors
  local seconds = summary.duration / 1e6
  local function line(key, format, value) io.write(string.format(prefix .. ".%s " .. format .. "\n", key, value)) end
  line("requests", "%d", summary.requests)
  for _, counter in ipairs(counters) do line(counter[1], "%d", counter[2]) end
  line("errors_connect", "%d", e.connect)
  line("errors_read", "%d", e.read)
  line("errors_write", "%d", e.write)
  line("errors_timeout", "%d", e.timeout)
  line("errors_status", "%d", e.status)
  line("errors", "%d", e.connect + e.read + e.write + e.timeout)
  line("duration_s", "%.3f", seconds)
  line("rps", "%.1f", seconds > 0 and summary.requests / seconds or 0)
  line("p50_ms", "%.2f", latency:percentile(50) / 1000)
  line("p90_ms", "%.2f", latency:percentile(90) / 1000)
  line("p99_ms", "%.2f", latency:percentile(99) / 1000)
  line("max_ms", "%.2f", latency.max / 1000)
end

return link_requests
