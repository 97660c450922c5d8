#!/usr/bin/env bash
# Soak test of the release attestation-server (issue 6, `make stress`): STRESS_SOAK_REQUESTS PDF
# requests with wrk on loopback, zero errors, memory flat.
#
# In a temporary directory (removed on exit): a configuration and key (attestation-admin init),
# 5,000 fictitious people minted into links (the people of scripts/stress/bench-server.sh, more of them),
# as users get them (no --form: each follows the calendar and prints the version in force, the
# last one today; STRESS_SOAK_LINKS=pinned pins them to deplacement-2020-11-28 instead),
# and the server on a free port. Then consecutive wrk runs of STRESS_SOAK_STEP requests each
# (Benchmarks/wrk/soak.lua counts exactly that many responses, then stops), every request a
# different person's `/attestation.pdf?…&offset=-20`. After each run, once the requests in flight
# have finished, the server's VmRSS, VmHWM, open descriptors and threads are read from /proc, and
# one row of a Markdown table is printed: requests so far, memory, req/s and p50/p99 of that run.
#
# Fails (exit 1) when: any response is not a 200 with a whole PDF, wrk saw a socket error
# (connect, read, write, or a response slower than 10 s), the server logged an error or
# anything that is not a log line (a crash), died, did not stop with status 0 on SIGTERM, counted
# a status other than 200 in its own metrics, or when its memory grew: RSS after the last run
# more than 10 % + 4 MB above the RSS after the first (see "Memory flat" below). The server never
# outlives the script.
#
#   STRESS_SOAK_REQUESTS=1000000   requests in all (the CI smoke: 20000)
#   STRESS_SOAK_STEP=100000        requests per run, one table row each (the CI smoke: 5000);
#                                  at least two runs, the first being the memory reference
#   STRESS_SOAK_CONNECTIONS=64     wrk connections (2 threads)
#   STRESS_SOAK_LOG_LEVEL=warning  the server's --log-level (info writes one line per request)
#   STRESS_SOAK_LINKS=following    following (links as users get them) or pinned (to the form of
#                                  28 November 2020)
#   ATTESTATION_BIN=.build/release where attestation-server and attestation-admin are (relative
#                                  to the repository, or absolute)
#
# Memory flat: the first run brings the server to its working set (malloc arenas of each worker
# thread, libmicrohttpd's connection pools, the fonts and form caches); every later run does the
# same work, so its RSS should stay where the first left it: scripts/stress/bench-server.sh measures
# +0.0 MB from 50,000 to 100,000 requests. The tolerance, 10 % of the first reading + 4 MB
# (about 8 MB for a ~38 MB server), absorbs allocator noise (glibc hands pages back in steps,
# a run may end with more connections mid-response) while catching a leak: 900,000 requests
# after the first run make a leak of 10 bytes per request 8.6 MB. The CI smoke (15,000 requests
# after the first run) only catches leaks of several hundred bytes per request.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/scripts/harness/harness.sh"
harness_use_bin release
lua_script=$root/Benchmarks/wrk/soak.lua
total=${STRESS_SOAK_REQUESTS:-1000000}
step=${STRESS_SOAK_STEP:-100000}
connections=${STRESS_SOAK_CONNECTIONS:-64}
log_level=${STRESS_SOAK_LOG_LEVEL:-warning}
links=${STRESS_SOAK_LINKS:-following}
people=5000
wrk_threads=2
# Memory tolerance: RSS_last ≤ RSS_first × (1 + percent / 100) + slack_kb.
rss_percent=10
rss_slack_kb=4096

fail() { echo "stress-soak : $*" >&2; exit 1; }
note() { echo "stress-soak : $*" >&2; }

[[ $total =~ ^[1-9][0-9]*$ ]] || fail "STRESS_SOAK_REQUESTS : un nombre entier ≥ 1 attendu (reçu « $total »)."
[[ $step =~ ^[1-9][0-9]*$ ]] || fail "STRESS_SOAK_STEP : un nombre entier ≥ 1 attendu (reçu « $step »)."
[[ $connections =~ ^[1-9][0-9]*$ ]] || fail "STRESS_SOAK_CONNECTIONS : un nombre entier ≥ 1 attendu (reçu « $connections »)."
[ "$connections" -ge "$wrk_threads" ] || fail "STRESS_SOAK_CONNECTIONS : au moins $wrk_threads (une par thread de wrk)."
[ "$total" -gt "$step" ] || fail "STRESS_SOAK_REQUESTS ($total) doit dépasser STRESS_SOAK_STEP ($step) : il faut au moins deux tranches, la première sert de référence pour la mémoire."
[[ $links =~ ^(following|pinned)$ ]] || fail "STRESS_SOAK_LINKS : following ou pinned attendu (reçu « $links »)."
case $log_level in
  trace|debug|info|notice|warning|error|critical) ;;
  *) fail "STRESS_SOAK_LOG_LEVEL : trace, debug, info, notice, warning, error ou critical attendu (reçu « $log_level »)." ;;
esac
for binary in "$server_bin" "$admin_bin"; do
  [ -x "$binary" ] || fail "$binary introuvable ; construisez-le : swift build -c release --product $(basename "$binary")"
done
for tool in wrk curl awk; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool manquant (apt-get install $tool)."
done

work=""
server_pid=""
wrk_pid=""

server_alive() { [ -n "$server_pid" ] && harness_alive "$server_pid"; }

cleanup() {
  local status=$?
  trap - EXIT INT TERM HUP
  if [ -n "$wrk_pid" ]; then
    kill -TERM "$wrk_pid" 2>/dev/null || true
    wait "$wrk_pid" 2>/dev/null || true
  fi
  harness_stop_all
  if [ -n "$work" ]; then rm -rf "$work"; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

work=$(mktemp -d "${TMPDIR:-/tmp}/stress-soak.XXXXXX")
harness_work=$work

# 1. Configuration, key and 5,000 fictitious people (the harness's population, as in
# scripts/stress/bench-server.sh: 1,600 distinct names, each with its own birth date, address and reasons;
# 2.5 % with a name outside CP1252, so their PDFs take the embedded-font path). Every link is
# distinct (its random id). 2. The server: its own limits in the configuration (the wrk
# connections all come from 127.0.0.1, so maxConnectionsPerAddress is raised above them), a free
# port.
per_address=$(( connections + 64 > 128 ? connections + 64 : 128 ))
max_connections=$(( per_address > 1024 ? per_address : 1024 ))
config=$(harness init-site "$work/site" --set server.maxConnections=$max_connections \
  --set server.maxConnectionsPerAddress=$per_address --set server.logLevel="$log_level")
# Links that follow the calendar name reasons the version in force carries on (harness people
# --following; 409 otherwise); pinned ones, the reasons of the form of 28 November 2020.
if [ "$links" = following ]; then
  harness people "$people" --following > "$work/people.tsv"
  harness mint --config "$config" --print token -- --csv "$work/people.tsv" > "$work/tokens.txt"
else
  harness people "$people" > "$work/people.tsv"
  harness mint --config "$config" --print token -- --csv "$work/people.tsv" --form deplacement-2020-11-28 > "$work/tokens.txt"
fi
tokens=$(sort -u "$work/tokens.txt" | wc -l)
[ "$tokens" -eq "$people" ] || fail "$tokens jetons distincts au lieu de $people."
harness_start_server server "$config"
base_url=$server_url
port=$server_port

sample_token=$(sed -n '2500p' "$work/tokens.txt")
sample_status=$(curl -sS --max-time 60 -o "$work/sample.pdf" -w '%{http_code}' "$base_url/attestation.pdf?t=$sample_token&offset=-20")
[ "$sample_status" = 200 ] || fail "échantillon : statut $sample_status au lieu de 200."
[ "$(head -c 5 "$work/sample.pdf")" = "%PDF-" ] || fail "échantillon : la réponse ne commence pas par %PDF-."

proc_value() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status"; }
fd_count() { find "/proc/$1/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l; }

rss_idle=$(proc_value "$server_pid" VmRSS)
fds_idle=$(fd_count "$server_pid")
threads_idle=$(proc_value "$server_pid" Threads)
chunks=$(( (total + step - 1) / step ))
note "serveur sur le port $port (PID $server_pid), $people liens ($links) ; $total requêtes en $chunks tranches de $step, $connections connexions, wrk -t$wrk_threads."

# 3. The runs. run_chunk N START: wrk until exactly N responses have been counted. The upper bound
# of its duration assumes at least 25 req/s.
declare -A result
run_chunk() {
  local requests=$1 start=$2 markers=$work/markers output=$work/wrk.txt status=0 bound
  bound=$(( 60 + requests / 25 ))
  rm -rf "$markers"; mkdir -p "$markers"
  wrk -t"$wrk_threads" -c"$connections" -d"${bound}s" --timeout 10s --latency -s "$lua_script" "$base_url/" \
    -- "tokens=$work/tokens.txt" "threads=$wrk_threads" "budget=$requests" "markers=$markers" "start=$start" \
    >"$output" 2>&1 &
  wrk_pid=$!
  # wrk.thread:stop() ends a thread, but wrk's main thread sleeps out -d anyway; SIGINT ends that
  # sleep and wrk then reports (its own elapsed time, so req/s stays right).
  while kill -0 "$wrk_pid" 2>/dev/null; do
    if [ "$(find "$markers" -name 'thread-*' | wc -l)" -ge "$wrk_threads" ]; then
      kill -INT "$wrk_pid" 2>/dev/null || true
      break
    fi
    server_alive || break
    sleep 0.2
  done
  wait "$wrk_pid" || status=$?
  wrk_pid=""
  server_alive || { tail -n 20 "$server_log" >&2; fail "le serveur est mort pendant la tranche ${#rows[@]} + 1."; }
  if [ "$status" -ne 0 ] || ! grep -q '^soak\.counted ' "$output"; then
    cat "$output" >&2
    fail "wrk a échoué (statut $status)."
  fi
  result=()
  while read -r key value; do
    result[${key#soak.}]=$value
  done < <(grep '^soak\.' "$output")
}

rows=()
done_requests=0
rss_first="" rss_last="" problems=()
all_extra=0 all_non200=0 all_notpdf=0 all_errors=0

echo
echo "### attestation-server soak ($(nproc) cores, wrk -t$wrk_threads -c$connections, $people people, links $links, /attestation.pdf?t=…&offset=-20)"
echo
echo "Idle before the first run: RSS $(awk -v k="$rss_idle" 'BEGIN { printf "%.1f", k / 1024 }') MB, $fds_idle descriptors, $threads_idle threads."
echo
echo "| requests so far | RSS (MB) | HWM (MB) | fds | threads | req/s | p50 (ms) | p99 (ms) | max (ms) | errors | not 200 / not PDF |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for (( chunk = 1; chunk <= chunks; chunk++ )); do
  requests=$(( total - done_requests < step ? total - done_requests : step ))
  run_chunk "$requests" $(( (chunk - 1) * 997 ))
  [ "${result[counted]}" -eq "$requests" ] ||
    problems+=("tranche $chunk : ${result[counted]} réponses comptées au lieu de $requests")
  done_requests=$(( done_requests + result[counted] ))
  # The requests the stop left in flight finish (or are dropped) before the reading.
  sleep 1
  rss=$(proc_value "$server_pid" VmRSS)
  hwm=$(proc_value "$server_pid" VmHWM)
  fds=$(fd_count "$server_pid")
  threads=$(proc_value "$server_pid" Threads)
  [ -n "$rss_first" ] || rss_first=$rss
  rss_last=$rss
  all_extra=$(( all_extra + result[extra] ))
  all_non200=$(( all_non200 + result[non200] ))
  all_notpdf=$(( all_notpdf + result[notpdf] ))
  all_errors=$(( all_errors + result[errors] ))
  if [ "${result[errors]}" -ne 0 ]; then
    problems+=("tranche $chunk : ${result[errors]} erreurs de wrk (connect ${result[errors_connect]}, read ${result[errors_read]}, write ${result[errors_write]}, délai > 10 s ${result[errors_timeout]})")
  fi
  [ "${result[non200]}" -eq 0 ] || problems+=("tranche $chunk : ${result[non200]} réponses d’un statut autre que 200")
  [ "${result[notpdf]}" -eq 0 ] || problems+=("tranche $chunk : ${result[notpdf]} réponses 200 qui ne sont pas un PDF entier")
  awk -v n="$done_requests" -v rss="$rss" -v hwm="$hwm" -v fds="$fds" -v threads="$threads" \
      -v rps="${result[rps]}" -v p50="${result[p50_ms]}" -v p99="${result[p99_ms]}" -v max="${result[max_ms]}" \
      -v errors="${result[errors]}" -v non200="${result[non200]}" -v notpdf="${result[notpdf]}" 'BEGIN {
    printf "| %d | %.1f | %.1f | %d | %d | %.0f | %.2f | %.2f | %.2f | %d | %d / %d |\n",
      n, rss / 1024, hwm / 1024, fds, threads, rps, p50, p99, max, errors, non200, notpdf
  }'
  rows+=("$chunk")
done

# The server's own count of answers by status (its Prometheus metrics), as a cross-check.
harness answers "$base_url" > "$work/answers.txt" || fail "/metrics ne répond pas."
server_statuses=$(awk '{ printf "%s%s: %d", (NR > 1 ? ", " : ""), $1, $2 }' "$work/answers.txt")
server_failed=$(awk '$1 != 200 { n += $2 } END { print n + 0 }' "$work/answers.txt")
fds_end=$(fd_count "$server_pid")

# Stop the server as an operator would; it must exit 0.
server_status=0
harness_stop "$server_pid" || server_status=$?
server_pid=""

rss_limit=$(( rss_first + rss_first * rss_percent / 100 + rss_slack_kb ))
echo
awk -v first="$rss_first" -v last="$rss_last" -v limit="$rss_limit" -v n="$(( done_requests - step ))" \
    -v percent="$rss_percent" -v slack="$rss_slack_kb" 'BEGIN {
  printf "Memory: RSS %.1f MB after the first run, %.1f MB after the last (%+.1f MB, %+.1f bytes per request over the %d requests after the first run); limit %.1f MB (first + %d %% + %d MB).\n",
    first / 1024, last / 1024, (last - first) / 1024, (last - first) * 1024 / (n > 0 ? n : 1), n, limit / 1024, percent, slack / 1024
}'
echo "Responses checked: $done_requests counted (exactly the budget) and $all_extra more that arrived as the wrk threads stopped; not 200: $all_non200; 200 but not a whole PDF: $all_notpdf; wrk socket errors and timeouts: $all_errors."
echo "Server's own count of answers by status: $server_statuses. Descriptors: $fds_idle idle before, $fds_end at the end."

[ "$rss_last" -le "$rss_limit" ] ||
  problems+=("mémoire : RSS $(( rss_last / 1024 )) Mo après la dernière tranche, au-delà de la limite de $(( rss_limit / 1024 )) Mo ($(( rss_first / 1024 )) Mo après la première + $rss_percent % + $(( rss_slack_kb / 1024 )) Mo)")
[ "$server_failed" -eq 0 ] || problems+=("le serveur a compté $server_failed réponses non 200 ($server_statuses)")
[ "$server_status" -eq 0 ] || problems+=("le serveur est sorti avec le statut $server_status après SIGTERM")
# Its JSON log: no error, nothing that is not a record (a crash), no token; warnings are shown.
logged_errors=$(harness check-log "$server_log" --secrets-file "$work/tokens.txt") ||
  problems+=("le journal du serveur :"$'\n'"$logged_errors")
if [ ${#problems[@]} -gt 0 ]; then
  printf 'stress-soak : %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "Soak passed: $done_requests PDFs, no failed request, memory flat, no error logged, clean stop."
