#!/usr/bin/env bash
# Scale-out on one machine: two attestation-server replicas behind nginx on loopback, a link
# revoked on both while the load runs, and how long that took.
#
# In a temporary directory (removed on exit): one configuration directory (attestation-admin init:
# config.json, the public key, revoked.txt) that both replicas read, each on its own free port
# (--port), with JSON logs; 200 fictitious people minted (scripts/harness) as users get their
# links (no --form: each follows the calendar and prints the version in force, the last one
# today; STRESS_SCALEOUT_LINKS=pinned pins them to deplacement-2020-11-28), plus Camille (to be
# revoked) and Dominique (kept);
# a self-signed certificate; nginx with docs/deploy/nginx-site.conf whose upstream block is
# replaced by docs/deploy/nginx-upstream-replicas.conf (only ports, certificate and log paths
# changed, and the per-client limits removed: all the load comes from one address, wrk's).
# Then, over HTTPS through nginx:
#
#   1. wrk (Benchmarks/wrk/attestations.lua, every request a different person's PDF) for
#      STRESS_SCALEOUT_SECONDS; half-way, docs/deploy/attestation-revoke revokes Camille's link
#      and asks each replica every 20 ms until it refuses it (410), under load. How the
#      replicas learn of it (STRESS_SCALEOUT_RELOAD):
#        swap    (the default) as under Kubernetes: the replicas read the revocation list from a
#                directory laid out as the kubelet mounts a ConfigMap, and attestation-revoke's
#                --reload publishes the administrator's new list there as the kubelet does
#                (Tests/Deploy/configmap_swap.sh: a new directory, one `..data` link renamed over
#                the old); no signal, each replica reloads on the change (server.reloadOnChange);
#        file    the list the replicas read is the one attestation-admin revoke appends to, in
#                place (one machine, as in docs/deployment.md); no signal either;
#        sighup  as file, plus one SIGHUP per replica (--reload), as for reloadOnChange false or
#                a network file system.
#      The delay reported, for each replica, is from the revocation's publication (attestation-
#      admin revoke returned, and the swap or the signals done) until it refused the link;
#   2. the replicas' own /metrics: the PDFs each one served (both must have a real share);
#   3. through nginx, Camille's link refused 40 times out of 40 by both replicas (nginx's access log
#      names the upstream of each), Dominique's served 40 times; each replica asked directly too;
#   4. with STRESS_SCALEOUT_SECONDS of 20 or more, a rolling restart under a second load (12 s):
#      each replica stopped by SIGTERM and started again, 2 s apart; not one request may fail;
#   5. no token in nginx's logs, no error in the replicas' logs, each logged the reload that
#      brought the revoked link in (a record `configuration reloaded` with revoked_links 1, and
#      trigger "file change" when no signal was sent), both exit 0 on SIGTERM.
#
# Prints a short report. Exits 1 on any socket error, any status but 200 under load, a replica
# with less than STRESS_SCALEOUT_MIN_SHARE % of the PDFs, or a revocation not in force on both.
#
#   STRESS_SCALEOUT_SECONDS=30       the load (make stress); CI's smoke runs 5
#   STRESS_SCALEOUT_CONNECTIONS=32   wrk connections (2 threads)
#   STRESS_SCALEOUT_MIN_SHARE=20     the smallest share a replica may serve, in %
#   STRESS_SCALEOUT_RELOAD=swap      swap, file or sighup (above)
#   STRESS_SCALEOUT_LINKS=following  following (links as users get them) or pinned (to the form
#                                    of 28 November 2020)
#   ATTESTATION_BIN=.build/release   where attestation-server and attestation-admin are
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$root/scripts/harness/harness.sh"
harness_use_bin release
deploy=$root/docs/deploy
lua_script=$root/Benchmarks/wrk/attestations.lua
seconds=${STRESS_SCALEOUT_SECONDS:-30}
connections=${STRESS_SCALEOUT_CONNECTIONS:-32}
min_share=${STRESS_SCALEOUT_MIN_SHARE:-20}
reload_mode=${STRESS_SCALEOUT_RELOAD:-swap}
links=${STRESS_SCALEOUT_LINKS:-following}
people=200
wrk_threads=2
checks=40
name=attestation.example.org

fail() { echo "stress-scaleout : $*" >&2; exit 1; }
note() { echo "stress-scaleout : $*" >&2; }

[[ $seconds =~ ^[1-9][0-9]*$ ]] && [ "$seconds" -ge 2 ] || fail "STRESS_SCALEOUT_SECONDS : un nombre entier de secondes ≥ 2 attendu (reçu « $seconds »)."
[[ $connections =~ ^[1-9][0-9]*$ ]] || fail "STRESS_SCALEOUT_CONNECTIONS : un nombre entier ≥ 1 attendu (reçu « $connections »)."
[[ $min_share =~ ^[0-9]+$ ]] && [ "$min_share" -le 50 ] || fail "STRESS_SCALEOUT_MIN_SHARE : un pourcentage de 0 à 50 attendu."
[[ $reload_mode =~ ^(swap|file|sighup)$ ]] || fail "STRESS_SCALEOUT_RELOAD : swap, file ou sighup attendu (reçu « $reload_mode »)."
[[ $links =~ ^(following|pinned)$ ]] || fail "STRESS_SCALEOUT_LINKS : following ou pinned attendu (reçu « $links »)."
for binary in "$server_bin" "$admin_bin"; do
  [ -x "$binary" ] || fail "$binary introuvable ; construisez-le : swift build -c release --product $(basename "$binary")"
done
for tool in nginx wrk curl openssl python3 awk; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool manquant (apt-get install $tool)."
done

work=""
wrk_pid=""

cleanup() {
  local status=$?
  trap - EXIT INT TERM HUP
  [ -n "$wrk_pid" ] && { kill -TERM "$wrk_pid" 2>/dev/null || true; wait "$wrk_pid" 2>/dev/null || true; }
  [ -n "${pause_pid:-}" ] && kill -TERM "$pause_pid" 2>/dev/null
  harness_stop_all
  if [ -n "$work" ]; then rm -rf "$work"; fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# A sleep that a signal interrupts at once (a trap waits for a foreground command to finish).
pause_pid=""
pause() { sleep "$1" & pause_pid=$!; wait "$pause_pid"; pause_pid=""; }

work=$(mktemp -d "${TMPDIR:-/tmp}/stress-scaleout.XXXXXX")
harness_work=$work
chmod 755 "$work"
etc=$work/etc

# 1. One configuration for both replicas: no per-address limit (every connection comes from nginx),
# notices only (a reload is one; a request is not), the site built into the server.
config=$(harness init-site "$etc" --base-url "https://$name" --set server.host=127.0.0.1 \
  --set server.maxConnectionsPerAddress=0 --set server.logLevel=notice)
# Links that follow the calendar name reasons the version in force carries on (harness people
# --following; a reason of November 2020 without a counterpart today is a 409); pinned ones, the
# reasons of the form of 28 November 2020.
if [ "$links" = following ]; then
  harness people "$people" --following > "$work/people.tsv"
  harness mint --config "$config" --print token -- --csv "$work/people.tsv" > "$work/tokens.txt"
else
  harness people "$people" > "$work/people.tsv"
  harness mint --config "$config" --print token -- --csv "$work/people.tsv" --form deplacement-2020-11-28 > "$work/tokens.txt"
fi
[ "$(sort -u "$work/tokens.txt" | wc -l)" -eq "$people" ] || fail "les $people liens n’ont pas été créés."
revoked_token=$(harness mint --config "$config" --person camille --reason travail)
kept_token=$(harness mint --config "$config" --person dominique --reason sante)
# What no log may hold: every token (the load's, and these two).
{ cat "$work/tokens.txt"; printf '%s\n' "$revoked_token" "$kept_token"; } > "$work/secrets.txt"

# The replicas' configuration: the administrator's, or in swap mode, as in the pods of
# docs/deploy/kubernetes/, a copy of it and of the revocation list in two ConfigMap-like
# directories (published by configmap_swap.sh), apart from the administrator's files.
replica_config=$config
mounted=$work/mounted/revocations
if [ "$reload_mode" = swap ]; then
  mkdir -p "$work/pod"
  harness config "$config" -o "$work/pod/config.json" --set revocationList="$mounted/revoked.txt"
  "$root/Tests/Deploy/configmap_swap.sh" "$work/mounted/config" "$work/pod/config.json"
  "$root/Tests/Deploy/configmap_swap.sh" "$mounted" "$etc/revoked.txt"
  replica_config=$work/mounted/config/config.json
fi

# 2. The replicas: the same configuration, each with its own --port (nginx's upstream names
# them), each run with a log of its own (replicaN-runK.log). Four distinct free ports: the
# replicas' and nginx's.
ports=$(harness free-port 4)
read -r replica_port_1 replica_port_2 http_port https_port <<< "$ports"
replica_ports=("$replica_port_1" "$replica_port_2")
replica_pids=()
replica_runs=(0 0)
# start_replica INDEX: (re)starts replica INDEX (0 or 1) on its port, once it listens.
start_replica() {
  local i=$1
  replica_runs[i]=$((replica_runs[i] + 1))
  harness_start_server "replica$((i + 1))-run${replica_runs[$i]}" "$replica_config" --port "${replica_ports[$i]}"
  replica_pids[$i]=$server_pid
}
start_replica 0
start_replica 1

# 3. nginx: the site with the two-replica upstream.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=$name" \
  -addext "subjectAltName=DNS:$name" -keyout "$work/tls-key.pem" -out "$work/tls-cert.pem" 2>/dev/null
mkdir -p "$work/nginx/logs" "$work/nginx/tmp"
sed -e "s#server 127.0.0.1:8080 #server 127.0.0.1:${replica_ports[0]} #" -e "s#server 127.0.0.1:8081 #server 127.0.0.1:${replica_ports[1]} #" \
  "$deploy/nginx-upstream-replicas.conf" > "$work/nginx/upstream.conf"
grep -q "server 127.0.0.1:${replica_ports[1]} " "$work/nginx/upstream.conf" || fail "nginx-upstream-replicas.conf : serveurs 127.0.0.1:8080 et :8081 attendus."
awk -v upstream="$work/nginx/upstream.conf" '
  /^upstream attestation \{/ { while ((getline line < upstream) > 0) if (line !~ /^#/) print line; skipping = 1; next }
  skipping && /^\}/ { skipping = 0; next }
  !skipping' "$deploy/nginx-site.conf" |
sed -e "s#/etc/letsencrypt/live/$name/fullchain.pem#$work/tls-cert.pem#" \
    -e "s#/etc/letsencrypt/live/$name/privkey.pem#$work/tls-key.pem#" \
    -e "s#/var/log/nginx/#$work/nginx/logs/#" \
    -e "s#/var/www/html#$work/nginx/acme#" \
    -e "s#^\(\s*\)listen 80;#\1listen 127.0.0.1:$http_port;#" \
    -e "s#^\(\s*\)listen 443 ssl http2;#\1listen 127.0.0.1:$https_port ssl http2;#" \
    -e "/^\s*listen \[::\]/d" \
    -e "/^\s*limit_req /d" -e "/^\s*limit_conn /d" > "$work/nginx/site.conf"
grep -q "least_conn" "$work/nginx/site.conf" || fail "le bloc upstream n’a pas été remplacé."
{
  [ "$(id -u)" = 0 ] && echo "user root;"
  cat <<EOF
worker_processes 2;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log;
events { worker_connections 2048; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    client_body_temp_path $work/nginx/tmp/body;
    proxy_temp_path $work/nginx/tmp/proxy;
    fastcgi_temp_path $work/nginx/tmp/fastcgi;
    uwsgi_temp_path $work/nginx/tmp/uwsgi;
    scgi_temp_path $work/nginx/tmp/scgi;
    access_log $work/nginx/logs/access.log;
    include $work/nginx/site.conf;
}
EOF
} > "$work/nginx/nginx.conf"
nginx -t -q -e "$work/nginx/logs/error.log" -p "$work/nginx" -c "$work/nginx/nginx.conf" || fail "nginx -t refuse la configuration."
nginx -e "$work/nginx/logs/error.log" -p "$work/nginx" -c "$work/nginx/nginx.conf" 2>"$work/nginx/run.err" &
nginx_pid=$!
harness_pids+=("$nginx_pid")
base=https://$name:$https_port
resolve=(--resolve "$name:$https_port:127.0.0.1" --cacert "$work/tls-cert.pem")
for _ in $(seq 100); do curl -s -o /dev/null --max-time 2 "${resolve[@]}" "$base/healthz" && break; sleep 0.1; done
[ "$(curl -s -o /dev/null -w '%{http_code}' "${resolve[@]}" "$base/attestation.pdf?t=$revoked_token")" = 200 ] ||
  fail "avant révocation, le lien de Camille n’est pas servi par nginx."
note "répliques sur 127.0.0.1:${replica_ports[0]} et :${replica_ports[1]} (PID ${replica_pids[*]}), nginx sur $https_port ; $people personnes, liens $links."

# pdf_count PORT: the PDFs a replica answered with 200 (its own Prometheus counter).
pdf_count() {
  curl -fsS --max-time 5 "http://127.0.0.1:$1/metrics" |
    awk '/^http_requests_total\{/ && /route="\/attestation.pdf"/ && /status="200"/ { n += $NF } END { print n + 0 }'
}
declare -A result
run_wrk() {  # run_wrk PHASE SECONDS [revoke-at SECONDS]
  local phase=$1 duration=$2 revoke_at=${3:-} output=$work/wrk-$1.txt status=0
  # A socket error is a connection the proxy or a replica dropped; wrk's own 2 s timeout also
  # counted slow answers as errors (20 of them in make test: the sanitized replicas at load 12,
  # p99 2.0 s). Slow is not lost: 10 s.
  wrk -t"$wrk_threads" -c"$connections" -d"${duration}s" --timeout 10s --latency -s "$lua_script" "https://127.0.0.1:$https_port/" \
    -- "tokens=$work/tokens.txt" "threads=$wrk_threads" >"$output" 2>&1 &
  wrk_pid=$!
  if [ -n "$revoke_at" ]; then
    pause "$revoke_at"
    local started reload_option=()
    started=$(date +%s%N)
    case $reload_mode in
      sighup) reload_option=(--reload "kill -HUP ${replica_pids[0]}; kill -HUP ${replica_pids[1]}") ;;
      swap) reload_option=(--reload "'$root/Tests/Deploy/configmap_swap.sh' '$mounted' '$etc/revoked.txt'") ;;
    esac
    # Each replica asked directly every 20 ms until it refuses the link.
    ATTESTATION_ADMIN=$admin_bin "$deploy/attestation-revoke" --config "$etc/config.json" "${reload_option[@]}" \
      --interval 0.02 --replica "http://127.0.0.1:${replica_ports[0]}" --replica "http://127.0.0.1:${replica_ports[1]}" \
      "https://$name/attestation.pdf?t=$revoked_token" >"$work/revoke.out" 2>&1 || { cat "$work/revoke.out" >&2; fail "la révocation n’est pas en vigueur sur les deux répliques."; }
    result[revoke.at]=$revoke_at
    result[revoke.took]=$(( ($(date +%s%N) - started) / 1000000 ))
    # "… refuses the link (410), 0.41 s after the revocation was published.": each replica's delay, in ms.
    local delays
    delays=$(sed -n 's/.* refuses the link (410), \([0-9]*\)\.\([0-9]*\) s after the revocation was published\./\1\2/p' "$work/revoke.out" |
      awk '{ printf "%d ", $1 * 10 }')
    read -r "result[revoke.replica1_ms]" "result[revoke.replica2_ms]" <<< "$delays"
    [ -n "${result[revoke.replica2_ms]:-}" ] || { cat "$work/revoke.out" >&2; fail "attestation-revoke n’a pas donné le délai de chaque réplique."; }
    local first=${result[revoke.replica1_ms]} second=${result[revoke.replica2_ms]}
    result[revoke.both_ms]=$(( first > second ? first : second ))
  fi
  wait "$wrk_pid" || status=$?
  wrk_pid=""
  if [ "$status" -ne 0 ] || ! grep -q '^bench\.requests ' "$output"; then cat "$output" >&2; fail "wrk ($phase) a échoué (statut $status)."; fi
  while read -r key value; do result[$phase.${key#bench.}]=$value; done < <(grep '^bench\.' "$output")
  for i in 0 1; do harness_alive "${replica_pids[$i]}" || { cat "$work/replica$((i + 1))-run${replica_runs[$i]}.log" >&2; fail "la réplique $((i + 1)) est morte pendant « $phase »."; }; done
}

# 4. The load, with the revocation half-way.
run_wrk warmup 2
before=("$(pdf_count "${replica_ports[0]}")" "$(pdf_count "${replica_ports[1]}")")
run_wrk load "$seconds" $((seconds / 2))
after=("$(pdf_count "${replica_ports[0]}")" "$(pdf_count "${replica_ports[1]}")")
served=($((after[0] - before[0])) $((after[1] - before[1])))
total_served=$((served[0] + served[1]))

# 5. Through nginx, the revoked link on both replicas and the kept one.
curl_many() {  # curl_many TOKEN: one status and upstream per request, CHECKS requests
  local config=$work/many.curl
  for _ in $(seq "$checks"); do printf 'url = "%s/attestation.pdf?t=%s"\noutput = "/dev/null"\n' "$base" "$1"; done > "$config"
  curl -s -K "$config" "${resolve[@]}" -w '%{http_code}\n'
}
revoked_codes=$(curl_many "$revoked_token" | sort | uniq -c | awk '{ printf "%s×%s ", $1, $2 }')
kept_codes=$(curl_many "$kept_token" | sort | uniq -c | awk '{ printf "%s×%s ", $1, $2 }')
sleep 0.5
# nginx's access log (attestation_noquery): the upstream of each 410.
revoked_by=$(awk '$7 == 410 { print $10 }' "$work/nginx/logs/attestation.access.log" | sort | uniq -c | awk '{ printf "%s×%s ", $1, $2 }')
direct=()
for i in 0 1; do
  direct+=("$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${replica_ports[$i]}/attestation.pdf?t=$revoked_token")/$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:${replica_ports[$i]}/attestation.pdf?t=$kept_token")")
done

# 6. A rolling restart under load (make stress only): SIGTERM replica 1 (it drains: /healthz 503,
# no new connections, requests in flight finish), start it again, and 2 s after it answers, the
# same for replica 2. Not one request may fail: nginx retries on the other replica.
rolling=""
restart_statuses=()
if [ "$seconds" -ge 20 ]; then
  rolling_seconds=12
  wrk -t"$wrk_threads" -c"$connections" -d"${rolling_seconds}s" --latency -s "$lua_script" "https://127.0.0.1:$https_port/" \
    -- "tokens=$work/tokens.txt" "threads=$wrk_threads" >"$work/wrk-rolling.txt" 2>&1 &
  wrk_pid=$!
  pause 2
  for i in 0 1; do
    status=0
    harness_stop "${replica_pids[$i]}" || status=$?
    restart_statuses+=("$status")
    start_replica "$i"
    [ "$i" = 0 ] && pause 2
  done
  status=0
  wait "$wrk_pid" || status=$?
  wrk_pid=""
  grep -q '^bench\.requests ' "$work/wrk-rolling.txt" || { cat "$work/wrk-rolling.txt" >&2; fail "wrk (redémarrage) a échoué (statut $status)."; }
  while read -r key value; do result[rolling.${key#bench.}]=$value; done < <(grep '^bench\.' "$work/wrk-rolling.txt")
  rolling=yes
fi

# 7. Logs, then a clean stop.
token_lines=$(cat "$work"/nginx/logs/*.log "$work/nginx/run.err" | grep -cE "t=|${revoked_token:0:24}|${kept_token:0:24}" || true)
# Each replica's first run logged the reload that brought the revoked link in (a record with
# revoked_links 1): triggered by the file change when no signal was sent; with SIGHUP, by
# whichever came first.
reload_fields=(--field revoked_links=1)
[ "$reload_mode" = sighup ] || reload_fields+=(--field "trigger=file change")
reloads=()
for i in 1 2; do
  reloads+=("$(harness records "$work/replica$i-run1.log" --message "configuration reloaded" "${reload_fields[@]}" --count)")
done
harness_stop "$nginx_pid" || true
exits=()
for i in 0 1; do
  status=0
  harness_stop "${replica_pids[$i]}" || status=$?
  exits+=("$status")
done
logged_errors=""
for log in "$work"/replica*.log; do
  logged_errors+=$(harness check-log "$log" --secrets-file "$work/secrets.txt" | sed "s#^#$(basename "$log") : #") || true
done

share() { awk -v n="$1" -v t="$total_served" 'BEGIN { printf "%.1f", (t > 0 ? 100 * n / t : 0) }'; }
echo
echo "### Scale-out: 2 replicas behind nginx (HTTPS, least_conn), $(nproc) cores, wrk -t$wrk_threads -c$connections, ${seconds} s, links $links"
echo
echo "| requests | req/s | p50 (ms) | p90 (ms) | p99 (ms) | socket errors | non-2xx |"
echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
echo "| ${result[load.requests]} | ${result[load.rps]} | ${result[load.p50_ms]} | ${result[load.p90_ms]} | ${result[load.p99_ms]} | ${result[load.errors]} | ${result[load.non2xx]} |"
echo
echo "PDFs served, from each replica's /metrics: 127.0.0.1:${replica_ports[0]} ${served[0]} ($(share "${served[0]}") %), 127.0.0.1:${replica_ports[1]} ${served[1]} ($(share "${served[1]}") %)."
case $reload_mode in
  swap) how="the list published as the kubelet updates a ConfigMap, no signal: each replica reloaded on the change" ;;
  file) how="the list appended to in place, no signal: each replica reloaded on the change" ;;
  sighup) how="one SIGHUP per replica" ;;
esac
echo "Revocation at ${result[revoke.at]} s into the load ($how): refused by replica 1 ${result[revoke.replica1_ms]} ms and replica 2 ${result[revoke.replica2_ms]} ms after it was published, by both ${result[revoke.both_ms]} ms; ${result[revoke.took]} ms for the whole attestation-revoke (revoke, publication, check)."
echo "Through nginx afterwards: revoked link ${revoked_codes% } (410s from: ${revoked_by% }); kept link ${kept_codes% }."
echo "Each replica asked directly (revoked/kept): ${direct[0]} and ${direct[1]}."
if [ -n "$rolling" ]; then
  echo "Rolling restart under load (${rolling_seconds} s, each replica stopped by SIGTERM and started again, 2 s apart): ${result[rolling.requests]} requests, ${result[rolling.rps]} req/s, p99 ${result[rolling.p99_ms]} ms, ${result[rolling.errors]} socket errors, ${result[rolling.non2xx]} non-2xx; exit statuses ${restart_statuses[*]}."
else
  echo "Rolling restart: skipped (STRESS_SCALEOUT_SECONDS < 20)."
fi

problems=()
[ "${result[load.errors]}" -eq 0 ] || problems+=("${result[load.errors]} erreurs de socket (connect ${result[load.errors_connect]}, read ${result[load.errors_read]}, write ${result[load.errors_write]}, timeout ${result[load.errors_timeout]})")
[ "${result[load.non2xx]}" -eq 0 ] || problems+=("${result[load.non2xx]} réponses non 200 sous charge")
[ "${result[warmup.errors]}" -eq 0 ] && [ "${result[warmup.non2xx]}" -eq 0 ] || problems+=("échauffement : ${result[warmup.errors]} erreurs, ${result[warmup.non2xx]} non 200")
for i in 0 1; do
  awk -v n="${served[$i]}" -v t="$total_served" -v m="$min_share" 'BEGIN { exit !(t > 0 && 100 * n / t >= m) }' ||
    problems+=("la réplique $((i + 1)) n’a servi que ${served[$i]} PDF sur $total_served (moins de $min_share %)")
done
[ "$revoked_codes" = "$checks×410 " ] || problems+=("lien révoqué via nginx : $revoked_codes")
[ "$(echo "$revoked_by" | wc -w)" -eq 2 ] || problems+=("les 410 ne viennent pas des deux répliques : $revoked_by")
[ "$kept_codes" = "$checks×200 " ] || problems+=("lien conservé via nginx : $kept_codes")
[ "${direct[0]}" = 410/200 ] && [ "${direct[1]}" = 410/200 ] || problems+=("répliques interrogées directement : ${direct[*]}")
[ "${reloads[0]}" -ge 1 ] && [ "${reloads[1]}" -ge 1 ] ||
  problems+=("rechargements journalisés avec le lien révoqué, par réplique : ${reloads[*]} (au moins 1 chacune attendu)")
[ "$token_lines" -eq 0 ] || problems+=("$token_lines lignes des journaux de nginx contiennent un jeton ou une requête")
[ -z "$logged_errors" ] || problems+=("les répliques ont journalisé :"$'\n'"$logged_errors")
[ "${exits[*]}" = "0 0" ] || problems+=("statuts de sortie des répliques après SIGTERM : ${exits[*]}")
if [ -n "$rolling" ]; then
  [ "${result[rolling.errors]}" -eq 0 ] && [ "${result[rolling.non2xx]}" -eq 0 ] ||
    problems+=("redémarrage sous charge : ${result[rolling.errors]} erreurs de socket, ${result[rolling.non2xx]} réponses non 200")
  [ "${restart_statuses[*]}" = "0 0" ] || problems+=("statuts de sortie au redémarrage : ${restart_statuses[*]}")
fi
if [ ${#problems[@]} -gt 0 ]; then
  printf 'stress-scaleout : %s\n' "${problems[@]}" >&2
  exit 1
fi
echo "No error; the revocation held on both replicas; nginx logged no token; both replicas stopped cleanly."
