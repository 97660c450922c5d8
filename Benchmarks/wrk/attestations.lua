-- wrk script for scripts/stress/bench-server.sh and stress-scaleout: every request asks for a different
-- person's attestation.
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
-- done() prints one `bench.KEY VALUE` line per result for scripts: those of
-- link_requests.report, and non2xx (responses whose status is not 200, counted in response()).

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local link_requests = require("link_requests")

setup = link_requests.setup
request = link_requests.request

function init(args)
  local opts = link_requests.options(args, "attestations.lua")
  link_requests.prepare(opts, "attestations.lua")
  budget = tonumber(opts.budget) or 0
  responses = 0
  non2xx = 0
end

function response(status, headers, body)
  if status ~= 200 then non2xx = non2xx + 1 end
  if stopped then return end
  responses = responses + 1
  link_requests.count_response(responses)
end

function done(summary, latency, requests)
  local sums = link_requests.sums({ "non2xx" })
  link_requests.report("bench", summary, latency, { { "non2xx", sums.non2xx } })
end
