#!/usr/bin/env bash
# Load benchmark of the release attestation-server, run by `make bench` after the release build.
#
# In a temporary directory (removed on exit): a configuration and key (attestation-admin init),
# 1,000 fictitious people minted into links as users get them (no --form: each link follows the
# calendar and prints the version in force, the last one today), the same people minted again
# pinned to deplacement-2020-11-28 for comparison, and the server on a free port. Then wrk with
# Benchmarks/wrk/attestations.lua, every request a different person's PDF (`offset=-20`):
# a warm-up, 16 then 64 connections for BENCH_DURATION seconds each, 64 connections with the
# pinned links, and a memory phase, the server's RSS after BENCH_MEMORY_REQUESTS and twice that
# many requests at 64 connections (the following links).
# Prints a Markdown table (rates, latency percentiles, the server's CPU time per request). Exits 1 if any request failed (socket error or status other than
# 200), the server logged an error, died or did not stop cleanly; the server never outlives it.
#
#   BENCH_DURATION=10          seconds of each measured run
#   BENCH_MEMORY_REQUESTS=50000  requests of each half of the memory phase
#   ATTESTATION_BIN=.build/release  where attestation-server and attestation-admin are
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/scripts/harness/harness.sh"
harness_use_bin release
lua_script=$root/Benchmarks/wrk/attestations.lua
duration=${BENCH_DURATION:-10}
memory_requests=${BENCH_MEMORY_REQUESTS:-50000}
people=1000
wrk_threads=2

fail() { echo "bench-server : $*" >&2; exit 1; }
note() { echo "bench-server : $*" >&2; }

[[ $duration =~ ^[1-9][0-9]*$ ]] || fail "BENCH_DURATION : un nombre entier de secondes ≥ 1 attendu (reçu « $duration »)."
[[ $memory_requests =~ ^[1-9][0-9]*$ ]] || fail "BENCH_MEMORY_REQUESTS : un nombre entier ≥ 1 attendu (reçu « $memory_requests »)."
for binary in "$server_bin" "$admin_bin"; do
  [ -x "$binary" ] || fail "$binary introuvable ; construisez-le : swift build -c release --product $(basename "$binary")"
done
for tool in wrk curl awk; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool manquant (scripts/install-deps.sh --bench installe wrk ; apt-get install $tool)."
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

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-server.XXXXXX")
harness_work=$work

# 1. Configuration, key and 1,000 distinct fictitious people (the harness's population: 2.5 % of
# them with a name outside CP1252, so their PDFs take the embedded-font path, as some real
# people's do). 2. The server: its own limits in the configuration (64 wrk connections come from
# one address; the default maxConnectionsPerAddress, 128, would leave no room, so 256), a free port.
config=$(harness init-site "$work/site" --set server.maxConnections=1024 --set server.maxConnectionsPerAddress=256 \
  --set server.logLevel=warning)
# The links users get follow the calendar: their reasons are codes the version in force carries on
# (harness people --following; a reason without a counterpart there is a 409). The pinned ones,
# to the form of 28 November 2020, name its reasons.
harness people "$people" --following > "$work/people.tsv"
harness mint --config "$config" --print token -- --csv "$work/people.tsv" > "$work/tokens.txt"
harness people "$people" > "$work/people-pinned.tsv"
harness mint --config "$config" --print token -- --csv "$work/people-pinned.tsv" --form deplacement-2020-11-28 \
  > "$work/tokens-pinned.txt"
for file in tokens tokens-pinned; do
  tokens=$(sort -u "$work/$file.txt" | wc -l)
  [ "$tokens" -eq "$people" ] || fail "$file : $tokens jetons distincts au lieu de $people."
done
harness_start_server server "$config"
base_url=$server_url
port=$server_port

# 5 (before the load). One sampled link of each kind answers a PDF; the offline template names
# the version a following link prints today.
for file in tokens tokens-pinned; do
  sample_token=$(sed -n '500p' "$work/$file.txt")
  sample_status=$(curl -sS --max-time 60 -o "$work/sample.pdf" -w '%{http_code}' "$base_url/attestation.pdf?t=$sample_token&offset=-20")
  [ "$sample_status" = 200 ] || fail "échantillon ($file) : statut $sample_status au lieu de 200."
  [ "$(head -c 5 "$work/sample.pdf")" = "%PDF-" ] || fail "échantillon ($file) : la réponse ne commence pas par %PDF-."
done
curl -sS --max-time 60 -o "$work/template.json" "$base_url/api/v1/template?t=$(sed -n '500p' "$work/tokens.txt")"
following_form=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["formID"])' "$work/template.json") ||
  fail "le modèle hors ligne d’un lien ne dit pas son formulaire."
note "serveur sur le port $port (PID $server_pid), 2 × $people liens ; les liens qui suivent le calendrier impriment $following_form ; échantillon : PDF de $(wc -c < "$work/sample.pdf") octets."

# 3-4. The runs. Each result goes into result[PHASE.KEY] from the script's `bench.KEY VALUE` lines.
declare -A result
phases=()

# run_wrk PHASE CONNECTIONS SECONDS [REQUESTS [TOKENS]]: with REQUESTS (0: none), SECONDS is only
# an upper bound and the run ends once the threads have made REQUESTS between them. TOKENS: the
# file of links, tokens (following the calendar) by default, or tokens-pinned.
run_wrk() {
  local phase=$1 connections=$2 seconds=$3 requests=${4:-0} links=${5:-tokens}
  local per_thread=0 markers=$work/markers-$phase output=$work/wrk-$phase.txt status=0
  mkdir -p "$markers"
  local cpu_before
  cpu_before=$(cpu_ticks "$server_pid")
  if [ "$requests" -gt 0 ]; then per_thread=$(( (requests + wrk_threads - 1) / wrk_threads )); fi
  wrk -t"$wrk_threads" -c"$connections" -d"${seconds}s" --latency -s "$lua_script" "$base_url/" \
    -- "tokens=$work/$links.txt" "threads=$wrk_threads" "budget=$per_thread" "markers=$markers" >"$output" 2>&1 &
  wrk_pid=$!
  if [ "$requests" -gt 0 ]; then
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
  fi
  wait "$wrk_pid" || status=$?
  wrk_pid=""
  if [ "$status" -ne 0 ] || ! grep -q '^bench\.requests ' "$output"; then
    cat "$output" >&2
    fail "wrk ($phase) a échoué (statut $status)."
  fi
  while read -r key value; do
    result[$phase.${key#bench.}]=$value
  done < <(grep '^bench\.' "$output")
  phases+=("$phase")
  result[$phase.connections]=$connections
  result[$phase.links]=$links
  # The server's CPU time (user and system, all threads) over the run, per request answered:
  # what a PDF costs, steadier than req/s on a machine wrk shares.
  result[$phase.cpu_us]=$(awk -v ticks=$(( $(cpu_ticks "$server_pid") - cpu_before )) -v hz="$clock_ticks" \
    -v n="${result[$phase.requests]}" 'BEGIN { printf "%.0f", (n > 0 ? ticks / hz * 1e6 / n : 0) }')
  note "$(printf '%-8s %3d connexions : %7s requêtes, %7s req/s, p50 %s ms, p99 %s ms, erreurs %s, non-2xx %s' \
    "$phase" "$connections" "${result[$phase.requests]}" "${result[$phase.rps]}" "${result[$phase.p50_ms]}" \
    "${result[$phase.p99_ms]}" "${result[$phase.errors]}" "${result[$phase.non2xx]}")"
  server_alive || { cat "$server_log" >&2; fail "le serveur est mort pendant « $phase »."; }
}

cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
clock_ticks=$(getconf CLK_TCK)
rss_kb() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status"; }

run_wrk warmup 64 3
run_wrk c16 16 "$duration"
run_wrk c64 64 "$duration"
run_wrk pinned 64 "$duration" 0 tokens-pinned
# Memory: two runs of BENCH_MEMORY_REQUESTS each, RSS read after each once wrk has exited and the
# requests still in flight have finished. Between runs rather than during one: the server is then
# idle, so both readings are taken in the same state and their difference is what 50,000 more
# requests left behind, not the buffers of 64 requests in flight at that instant. Each run stops on
# a request budget (the Lua script) rather than a duration, so the counts do not depend on how
# fast this noisy machine happens to be. The upper bound assumes at least 25 req/s.
sleep 1
rss_start=$(rss_kb "$server_pid" VmRSS)
memory_bound=$(( 60 + memory_requests / 25 ))
run_wrk memory1 64 "$memory_bound" "$memory_requests"
sleep 1
rss_first=$(rss_kb "$server_pid" VmRSS)
run_wrk memory2 64 "$memory_bound" "$memory_requests"
sleep 1
rss_second=$(rss_kb "$server_pid" VmRSS)
rss_peak=$(rss_kb "$server_pid" VmHWM)

# The server's own count of answers by status (its Prometheus metrics), as a cross-check.
harness answers "$base_url" > "$work/answers.txt" || fail "/metrics ne répond pas."
server_statuses=$(awk '{ printf "%s%s: %d", (NR > 1 ? ", " : ""), $1, $2 }' "$work/answers.txt")
server_failed=$(awk '$1 != 200 { n += $2 } END { print n + 0 }' "$work/answers.txt")

# Stop the server as an operator would; it must exit 0.
server_status=0
harness_stop "$server_pid" || server_status=$?
server_pid=""

# 5. The report.
total_requests=0 total_errors=0 total_non2xx=0
for phase in "${phases[@]}"; do
  total_requests=$(( total_requests + ${result[$phase.requests]} ))
  total_errors=$(( total_errors + ${result[$phase.errors]} ))
  total_non2xx=$(( total_non2xx + ${result[$phase.non2xx]} ))
done
echo
echo "### attestation-server under load ($(nproc) cores, wrk -t$wrk_threads, $people people, /attestation.pdf?t=…&offset=-20)"
echo
echo "| run | links | connections | requests | req/s | p50 (ms) | p90 (ms) | p99 (ms) | server CPU per request (µs) | errors | non-2xx |"
echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
for phase in c16 c64 pinned memory1 memory2; do
  case $phase in
    c16|c64|pinned) label="${duration} s" ;;
    memory1) label="memory, 1st ${memory_requests}" ;;
    memory2) label="memory, 2nd ${memory_requests}" ;;
  esac
  case ${result[$phase.links]} in
    tokens) links="following ($following_form)" ;;
    *) links="pinned (deplacement-2020-11-28)" ;;
  esac
  echo "| $label | $links | ${result[$phase.connections]} | ${result[$phase.requests]} | ${result[$phase.rps]} | ${result[$phase.p50_ms]} | ${result[$phase.p90_ms]} | ${result[$phase.p99_ms]} | ${result[$phase.cpu_us]} | ${result[$phase.errors]} | ${result[$phase.non2xx]} |"
done
echo
awk -v start="$rss_start" -v first="$rss_first" -v second="$rss_second" -v peak="$rss_peak" \
    -v n1="${result[memory1.requests]}" -v n2="${result[memory2.requests]}" 'BEGIN {
  printf "| server RSS | MB |\n| --- | ---: |\n"
  printf "| before the memory phase | %.1f |\n", start / 1024
  printf "| after %d requests | %.1f |\n", n1, first / 1024
  printf "| after %d requests | %.1f |\n", n1 + n2, second / 1024
  printf "| difference (2nd half) | %+.1f (%+.1f bytes per request) |\n", (second - first) / 1024, (second - first) * 1024 / (n2 > 0 ? n2 : 1)
  printf "| peak (VmHWM) | %.1f |\n", peak / 1024
}'
echo
echo "Warm-up: ${result[warmup.requests]} requests. Errors are wrk socket errors (connect, read, write, timeout > 2 s); non-2xx counts every status other than 200."
echo "Server's own count of answers by status: $server_statuses."

problems=()
for phase in "${phases[@]}"; do
  if [ "${result[$phase.errors]}" -ne 0 ]; then
    problems+=("$phase : ${result[$phase.errors]} erreurs (connect ${result[$phase.errors_connect]}, read ${result[$phase.errors_read]}, write ${result[$phase.errors_write]}, timeout ${result[$phase.errors_timeout]})")
  fi
  if [ "${result[$phase.non2xx]}" -ne 0 ]; then problems+=("$phase : ${result[$phase.non2xx]} réponses non 200"); fi
done
[ "$server_failed" -eq 0 ] || problems+=("le serveur a compté $server_failed réponses non 200 ($server_statuses)")
[ "$server_status" -eq 0 ] || problems+=("le serveur est sorti avec le statut $server_status après SIGTERM")
# Its JSON log: no error, nothing that is not a record (a crash); warnings are shown.
cat "$work/tokens.txt" "$work/tokens-pinned.txt" > "$work/secrets.txt"
logged_errors=$(harness check-log "$server_log" --secrets-file "$work/secrets.txt") ||
  problems+=("le journal du serveur :"$'\n'"$logged_errors")
if [ ${#problems[@]} -gt 0 ]; then
  printf 'bench-server : %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "No failed request out of $total_requests; the server logged no error and stopped cleanly."
