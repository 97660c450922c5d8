-- wrk script for scripts/stress/stress-soak.sh: a budget of exactly N responses, each a different person's
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
-- (and a line end). done() prints one `soak.KEY VALUE` line per result: those of
-- link_requests.report (`requests` is wrk's own count, counted + extra), and counted, extra,
-- non200, notpdf.

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local link_requests = require("link_requests")

setup = link_requests.setup
request = link_requests.request

function init(args)
  local opts = link_requests.options(args, "soak.lua")
  local spread = link_requests.prepare(opts, "soak.lua", tonumber(opts.start) or 0)
  local total = tonumber(opts.budget) or 0
  assert(total >= spread, "soak.lua : budget=N attendu, au moins une réponse par thread")
  budget = math.floor(total / spread) + ((id <= total % spread) and 1 or 0)
  counted = 0
  extra = 0
  non200 = 0
  notpdf = 0
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
  link_requests.count_response(counted)
end

function done(summary, latency, requests)
  local sums = link_requests.sums({ "counted", "extra", "non200", "notpdf" })
  link_requests.report("soak", summary, latency, {
    { "counted", sums.counted }, { "extra", sums.extra }, { "non200", sums.non200 }, { "notpdf", sums.notpdf } })
end
