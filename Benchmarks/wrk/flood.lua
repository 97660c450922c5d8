-- wrk script for scripts/stress/stress-fairness.py: one expensive URL asked again and again (a page image,
-- the offline template), the answers counted by status.
--
--   wrk -t2 -c64 -d20s --timeout 10s --latency -s Benchmarks/wrk/flood.lua \
--       'http://127.0.0.1:PORT/attestation.png?t=TOKEN&page=1&dpi=300' -- kind=png|json
--
-- kind   what a 200 must hold: png (starts with the PNG signature) or json (an object).
--
-- done() prints one `flood.KEY VALUE` line per result: those of link_requests.report, then
-- ok (200 with the expected body), bad200 (200 with another body), busy (503), busy_retry
-- (503 with a Retry-After header), other (any other status) and other_status (the first such
-- status seen, 0 if none).

local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "./"
package.path = here .. "?.lua;" .. package.path
local link_requests = require("link_requests")

setup = link_requests.setup

function init(args)
  local opts = link_requests.options(args, "flood.lua")
  kind = opts.kind or "png"
  assert(kind == "png" or kind == "json", "flood.lua : kind=png ou kind=json attendu")
  ok = 0
  bad200 = 0
  busy = 0
  busy_retry = 0
  other = 0
  other_status = 0
end

local function has_retry_after(headers)
  for name, _ in pairs(headers) do
    if string.lower(name) == "retry-after" then return true end
  end
  return false
end

function response(status, headers, body)
  if status == 200 then
    local good
    if kind == "png" then good = body:sub(1, 8) == "\137PNG\r\n\26\n" else good = body:sub(1, 1) == "{" end
    if good then ok = ok + 1 else bad200 = bad200 + 1 end
  elseif status == 503 then
    busy = busy + 1
    if has_retry_after(headers) then busy_retry = busy_retry + 1 end
  else
    other = other + 1
    if other_status == 0 then other_status = status end
  end
end

function done(summary, latency, requests)
  local sums = link_requests.sums({ "ok", "bad200", "busy", "busy_retry", "other" })
  local first_other = 0
  for _, thread in ipairs(link_requests.threads()) do
    local status = thread:get("other_status") or 0
    if first_other == 0 then first_other = status end
  end
  link_requests.report("flood", summary, latency, {
    { "ok", sums.ok }, { "bad200", sums.bad200 }, { "busy", sums.busy }, { "busy_retry", sums.busy_retry },
    { "other", sums.other }, { "other_status", first_other } })
end
