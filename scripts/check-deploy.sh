#!/usr/bin/env bash
# Checks the deployment files of docs/deploy/ for real, on loopback, with the built binaries.
#
#   scripts/check-deploy.sh [nginx] [caddy] [tls] [systemd] [compose]    (default: all five)
#
# Builds nothing: the binaries come from ATTESTATION_BIN (default: the latest of .build/release
# and .build/debug; `swift build -c release --product attestation-server` and `--product
# attestation-admin` make them). In a temporary directory (removed on exit), through the test
# harness (scripts/harness): a configuration and key (attestation-admin init), links for
# fictitious people, a self-signed certificate for attestation.example.org (openssl), and
# attestation-server on a free port with JSON logs. Then:
#
#   nginx    docs/deploy/nginx-site.conf, with only its ports, certificate, log paths and upstream
#            address changed (sed), under `nginx -t` then nginx itself: the PDF over HTTPS (checked
#            with pdftotext), HTTP -> HTTPS, gzip on /licenses and app.js but not the PDF, HSTS,
#            /metrics refused however spelt, a body refused, the per-client rate limit, then the
#            server stopped (502); no log line holds a token or a query string; and, with an
#            upstream echoing its headers, no X-Forwarded-For/Forwarded/X-Real-IP passed on.
#   caddy    docs/deploy/Caddyfile the same way (`caddy validate`, `caddy fmt`, `caddy run`),
#            its own certificate instead of ACME.
#   tls      the server alone with server.tls: the PDF over HTTPS, plain HTTP refused.
#   systemd  both units: `systemd-analyze verify`, `systemd-analyze security --offline` (exposure
#            at most CHECK_DEPLOY_MAX_EXPOSURE, default 2.0), the template identical but for its
#            port, and the server (plain and TLS) run under the unit's seccomp rules
#            (Tests/Deploy/unit_seccomp.py): every route, SIGHUP (its reload logged), a link
#            revoked on disk refused without a signal (reload on change: inotify allowed),
#            SIGTERM, exit 0. As root with unshare, the same for the unit's ExecStartPre and
#            ExecStart themselves, in its file-system and privilege sandbox rebuilt by
#            Tests/Deploy/unit_namespace.sh (skipped otherwise).
#   compose  docs/deploy/compose.yaml against the Dockerfile (volume, port, health check, user,
#            read-only mounts), and `docker-compose config` when docker-compose is installed.
#
# Needs nginx, caddy, openssl, curl, pdftotext (poppler-utils), python3 with python3-yaml,
# systemd (systemd-analyze) and libseccomp2; no running systemd, no Docker engine, no network.
# Exits 1 if any check fails, listing them; every process it started is stopped on exit.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/harness/harness.sh"
harness_use_bin
deploy=$root/docs/deploy
max_exposure=${CHECK_DEPLOY_MAX_EXPOSURE:-2.0}
name=attestation.example.org

note() { echo "check-deploy: $*" >&2; }
die() { echo "check-deploy: $*" >&2; exit 1; }

sections=("$@")
[ ${#sections[@]} -gt 0 ] || sections=(nginx caddy tls systemd compose)
for section in "${sections[@]}"; do
  case $section in nginx|caddy|tls|systemd|compose) ;; *) echo "usage: scripts/check-deploy.sh [nginx] [caddy] [tls] [systemd] [compose]" >&2; exit 64 ;; esac
done
wants() { local s; for s in "${sections[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

for binary in "$server_bin" "$admin_bin"; do
  [ -x "$binary" ] || die "$binary introuvable ; construisez-le : swift build -c release --product $(basename "$binary")"
done
need_tool() { command -v "$1" >/dev/null 2>&1 || die "$1 manquant (apt-get install $2)."; }
need_tool curl curl
need_tool openssl openssl
need_tool python3 python3
need_tool gzip gzip
need_tool pdftotext poppler-utils
wants nginx && need_tool nginx nginx
wants caddy && need_tool caddy caddy
wants systemd && need_tool systemd-analyze systemd
if wants compose; then python3 "$root/Tests/Deploy/check_compose.py" --requirements || exit 1; fi

# --- Processes and results --------------------------------------------------------------------

work=""
passed=()
failed=()

cleanup() {
  local status=$?
  trap - EXIT INT TERM HUP
  harness_stop_all
  if [ -n "$work" ] && [ -z "${CHECK_DEPLOY_KEEP:-}" ]; then rm -rf "$work"; fi
  [ -n "${CHECK_DEPLOY_KEEP:-}" ] && [ -n "$work" ] && note "fichiers gardés dans $work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

pass() { passed+=("$1"); echo "  ok    $1"; }
flunk() { failed+=("$1"); echo "  FAIL  $1" >&2; [ $# -lt 2 ] || printf '        %s\n' "${@:2}" >&2; }
# check DESCRIPTION COMMAND...: the command's success is the check's.
check() { local what=$1; shift; if "$@"; then pass "$what"; else flunk "$what"; fi; }

# wait_http URL [CURL_ARG...]: until URL answers anything over HTTP, 30 s at most (a loaded
# machine can be slow to start a proxy).
wait_http() {
  local url=$1; shift
  for _ in $(seq 300); do
    curl -s -o /dev/null --max-time 2 "$@" "$url" 2>/dev/null && return 0
    sleep 0.1
  done
  return 1
}

# fetch URL OUT [CURL_ARG...]: prints the status; headers in OUT.headers, body in OUT.
fetch() {
  local url=$1 out=$2; shift 2
  local code
  : > "$out.headers"
  code=$(curl -sS --max-time 10 -D "$out.headers" -o "$out" -w '%{http_code}' "$@" "$url" 2>/dev/null) || true
  echo "${code:-000}"
}
header_of() { tr -d '\r' < "$1.headers" | awk -v h="$(echo "$2" | tr 'A-Z' 'a-z')" 'BEGIN { FS = ": " } tolower($1) == h { print substr($0, length($1) + 3) }' | tail -n 1; }

pdf_names() { pdftotext "$1" - 2>/dev/null | grep -q "$2"; }

# No log holds the token, a piece of it, or a query string.
logs_clean() {
  local file bad=0
  for file in "$@"; do
    [ -f "$file" ] || continue
    if grep -qF "$token_head" "$file" || grep -qF "$other_head" "$file" || grep -qE '[?&]t=|offset=-20' "$file"; then
      echo "        $file :" >&2
      grep -nE "t=|$token_head|$other_head|offset=" "$file" | cut -c1-200 | head -n 3 | sed 's/^/          /' >&2
      bad=1
    fi
  done
  return $bad
}

# --- The common set-up ------------------------------------------------------------------------

work=$(mktemp -d "${TMPDIR:-/tmp}/check-deploy.XXXXXX")
harness_work=$work
chmod 755 "$work"
# The server object docs/deployment.md shows behind a proxy: loopback, no per-address limit.
harness init-site "$work/etc" --base-url "https://$name" --set server.host=127.0.0.1 --set server.port=8080 \
  --set server.maxConnectionsPerAddress=0 >/dev/null
# Fictitious people (one with a name outside Latin-1: the embedded-font path, on a version of 2020,
# as the versions from April 2021 print the values folded to ASCII, as their generator did).
link=$(harness mint --config "$work/etc/config.json" --person camille --reason travail --print url)
other=$(harness mint --config "$work/etc/config.json" --person lukasz --reason sante --print token -- --form deplacement-2020-11-28)
query=?${link#*\?}
token=${link##*t=}
token_head=${token:0:24}
other_query="?t=$other"
other_head=${other:0:24}
[ "${link%%\?*}" = "https://$name/attestation.pdf" ] || die "lien inattendu : ${link%%\?*}"

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=$name" \
  -addext "subjectAltName=DNS:$name" -keyout "$work/tls-key.pem" -out "$work/tls-cert.pem" 2>/dev/null
chmod 600 "$work/tls-key.pem"

# The reference answers, straight from a server.
WRAP="" harness_start_server direct "$work/etc/config.json"
direct_url=$server_url
curl -sS -o "$work/licenses.html" "$direct_url/licenses"
curl -sS -o "$work/app.js" "$direct_url/app.js"
harness_stop "$server_pid" || die "le serveur de référence n’est pas sorti avec 0."
versions="binaries from $bin_dir"
command -v nginx >/dev/null 2>&1 && versions+=", $(nginx -v 2>&1 | sed 's/.*: //')"
command -v caddy >/dev/null 2>&1 && versions+=", caddy $(caddy version | cut -d' ' -f1)"
echo "check-deploy: $versions"

# Checks shared by both proxies, on https://$name:$https_port and http://$name:$http_port.
proxy_checks() {
  local label=$1 https=$2 http=$3 redirect_status=$4 body_statuses=$5
  local resolve=(--resolve "$name:${https##*:}:127.0.0.1" --resolve "$name:${http##*:}:127.0.0.1" --cacert "$work/tls-cert.pem")
  local out=$work/$label-response status

  status=$(fetch "$https/attestation.pdf$query" "$out.pdf" "${resolve[@]}")
  check "$label: PDF over HTTPS, 200 application/pdf with the name in it" \
    eval '[ "$status" = 200 ] && [ "$(header_of "$out.pdf" content-type)" = application/pdf ] && pdf_names "$out.pdf" "Camille Dupont"'
  status=$(fetch "$https/attestation.pdf$other_query" "$out-other.pdf" "${resolve[@]}")
  check "$label: PDF with a name outside Latin-1 (embedded font)" eval '[ "$status" = 200 ] && pdf_names "$out-other.pdf" "Łukasz Wałęsa"'
  check "$label: the server's own headers passed on, HSTS added" \
    eval '[ "$(header_of "$out.pdf" referrer-policy)" = no-referrer ] && [ "$(header_of "$out.pdf" cache-control)" = no-store ] && header_of "$out.pdf" strict-transport-security | grep -q "max-age="'

  status=$(fetch "$http/attestation.pdf$query" "$out.redirect" "${resolve[@]}")
  local location
  location=$(header_of "$out.redirect" location)
  check "$label: HTTP -> HTTPS ($status to https://$name…/attestation.pdf?t=…)" \
    eval '[ "$status" = "$redirect_status" ] && [[ $location == https://$name*/attestation.pdf"$query" ]]'

  status=$(fetch "$https/licenses" "$out.licenses" "${resolve[@]}" -H 'Accept-Encoding: gzip')
  local plain gzipped
  gzipped=$(wc -c < "$out.licenses")
  plain=$(wc -c < "$work/licenses.html")
  check "$label: /licenses gzipped ($plain -> $gzipped bytes), same page once inflated" \
    eval '[ "$status" = 200 ] && [ "$(header_of "$out.licenses" content-encoding)" = gzip ] && gzip -dc "$out.licenses" | cmp -s - "$work/licenses.html"'
  status=$(fetch "$https/app.js" "$out.appjs" "${resolve[@]}" -H 'Accept-Encoding: gzip')
  check "$label: /app.js gzipped" \
    eval '[ "$status" = 200 ] && [ "$(header_of "$out.appjs" content-encoding)" = gzip ] && gzip -dc "$out.appjs" | cmp -s - "$work/app.js"'
  status=$(fetch "$https/attestation.pdf$query" "$out.pdfgz" "${resolve[@]}" -H 'Accept-Encoding: gzip')
  check "$label: the PDF not recompressed" eval '[ "$status" = 200 ] && [ -z "$(header_of "$out.pdfgz" content-encoding)" ]'

  local path refused=1 codes=""
  for path in /metrics /%6Detrics /%6d%65trics //metrics '/metrics?x=1' /./metrics /a/../metrics /metrics/ /METRICS; do
    status=$(fetch "$https$path" "$out.metrics" "${resolve[@]}" --path-as-is)
    codes+="$path $status, "
    if [ "$status" = 200 ] || grep -q http_requests_total "$out.metrics"; then refused=0; fi
  done
  check "$label: /metrics refused from outside (${codes%, })" [ "$refused" = 1 ]

  head -c 4096 /dev/zero > "$work/body.bin"
  status=$(fetch "$https/api/v1/forms" "$out.body" "${resolve[@]}" --data-binary "@$work/body.bin")
  # nginx says 413 itself; Caddy 2.6 says 502 when request_body trips (caddyserver/caddy#5652),
  # or passes on the server's 405 when the server answered first.
  check "$label: a 4 KB request body refused ($status)" eval '[[ " $body_statuses " == *" $status "* ]]'
}

# The server must be stopped, then: 502/503, and still no token in any log.
proxy_down_checks() {
  local label=$1 https=$2; shift 2
  local resolve=(--resolve "$name:${https##*:}:127.0.0.1" --cacert "$work/tls-cert.pem") status
  status=$(fetch "$https/attestation.pdf$query" "$work/$label-down" "${resolve[@]}")
  check "$label: server stopped: $status from the proxy" eval '[ "$status" = 502 ] || [ "$status" = 503 ]'
  sleep 0.5
  check "$label: no token, query string or personal data in any log ($(echo "$@" | wc -w) files)" logs_clean "$@"
}

# forwarding_checks LABEL HTTPS_URL PORT: an upstream on PORT (the server's, now stopped) that
# echoes the request headers it gets; none may carry a client address.
forwarding_checks() {
  local label=$1 https=$2 port=$3 echo_pid headers
  python3 "$root/Tests/Deploy/echo_headers.py" "$port" &
  echo_pid=$!
  harness_pids+=("$echo_pid")
  local resolve=(--resolve "$name:${https##*:}:127.0.0.1" --cacert "$work/tls-cert.pem")
  for _ in $(seq 50); do
    headers=$(curl -s --max-time 5 "${resolve[@]}" -H "X-Forwarded-For: 192.0.2.7" -H "Forwarded: for=192.0.2.7" \
      -H "X-Real-IP: 192.0.2.7" "$https/echo") || true
    [[ $headers == *Host:* || $headers == *host:* ]] && break
    sleep 0.2
  done
  check "$label: no forwarding header reaches the server, not even the client's own" \
    eval '[[ $headers == *[Hh]ost:* ]] && ! grep -qiE "^(x-forwarded|forwarded|x-real-ip)" <<< "$headers"'
  harness_stop "$echo_pid" || true
}

# --- nginx ------------------------------------------------------------------------------------

check_nginx() {
  echo "nginx: docs/deploy/nginx-site.conf"
  local dir=$work/nginx app_port http_port https_port
  mkdir -p "$dir/logs" "$dir/tmp" "$dir/acme"
  WRAP="" harness_start_server nginx-app "$work/etc/config.json"
  local app_pid=$server_pid ports
  app_port=$server_port
  ports=$(harness free-port 2)
  read -r http_port https_port <<< "$ports"
  # Only addresses, ports and paths change; every directive is the file's own.
  sed -e "s#/etc/letsencrypt/live/$name/fullchain.pem#$work/tls-cert.pem#" \
      -e "s#/etc/letsencrypt/live/$name/privkey.pem#$work/tls-key.pem#" \
      -e "s#/var/log/nginx/#$dir/logs/#" \
      -e "s#/var/www/html#$dir/acme#" \
      -e "s#^\(\s*server\) 127.0.0.1:8080;#\1 127.0.0.1:$app_port;#" \
      -e "s#^\(\s*\)listen 80;#\1listen 127.0.0.1:$http_port;#" \
      -e "s#^\(\s*\)listen 443 ssl http2;#\1listen 127.0.0.1:$https_port ssl http2;#" \
      -e "/^\s*listen \[::\]/d" \
      "$deploy/nginx-site.conf" > "$dir/site.conf"
  local changed
  changed=$(diff "$deploy/nginx-site.conf" "$dir/site.conf" | grep -c '^>' || true)
  # The http {} of Debian's nginx.conf, with paths of its own: mime types, temp files, logs.
  {
    [ "$(id -u)" = 0 ] && echo "user root;"
    cat <<EOF
worker_processes 2;
daemon off;
pid $dir/nginx.pid;
error_log $dir/logs/error.log;
events { worker_connections 512; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    client_body_temp_path $dir/tmp/body;
    proxy_temp_path $dir/tmp/proxy;
    fastcgi_temp_path $dir/tmp/fastcgi;
    uwsgi_temp_path $dir/tmp/uwsgi;
    scgi_temp_path $dir/tmp/scgi;
    access_log $dir/logs/access.log;
    include $dir/site.conf;
}
EOF
  } > "$dir/nginx.conf"
  if ! nginx -t -q -e "$dir/logs/error.log" -p "$dir" -c "$dir/nginx.conf" 2>"$dir/t.err"; then
    flunk "nginx: nginx -t accepts the site ($changed lines templated)" "$(cat "$dir/t.err")"
    harness_stop "$app_pid" || true
    return
  fi
  pass "nginx: nginx -t accepts the site ($changed lines templated: ports, certificate, log paths, upstream)"
  nginx -e "$dir/logs/error.log" -p "$dir" -c "$dir/nginx.conf" 2>"$dir/run.err" &
  local nginx_pid=$!
  harness_pids+=("$nginx_pid")
  wait_http "https://$name:$https_port/healthz" --resolve "$name:$https_port:127.0.0.1" --cacert "$work/tls-cert.pem" ||
    { flunk "nginx: starts" "$(cat "$dir/run.err" "$dir/logs/error.log")"; return; }

  proxy_checks nginx "https://$name:$https_port" "http://$name:$http_port" 301 413
  mkdir -p "$dir/acme/.well-known/acme-challenge"
  echo "challenge-answer" > "$dir/acme/.well-known/acme-challenge/check-deploy"
  local acme
  acme=$(curl -s --max-time 5 --resolve "$name:$http_port:127.0.0.1" "http://$name:$http_port/.well-known/acme-challenge/check-deploy")
  check "nginx: ACME http-01 challenges served over plain HTTP (certbot --webroot)" [ "$acme" = challenge-answer ]

  # The rate limit (20 r/s, burst 60): 200 requests at once on one connection.
  local curl_config=$dir/burst.curl codes
  for _ in $(seq 200); do printf 'url = "https://%s:%s/healthz"\noutput = "/dev/null"\n' "$name" "$https_port"; done > "$curl_config"
  codes=$(curl -s -K "$curl_config" --resolve "$name:$https_port:127.0.0.1" --cacert "$work/tls-cert.pem" -w '%{http_code}\n' | sort | uniq -c | awk '{ printf "%s×%s ", $1, $2 }')
  check "nginx: per-client rate limit, 200 requests at once: ${codes% }" eval '[[ $codes == *×429* ]] && [[ $codes == *×200* ]]'
  sleep 3.5  # the burst drains at 20 r/s
  local status
  status=$(fetch "https://$name:$https_port/healthz" "$dir/after" --resolve "$name:$https_port:127.0.0.1" --cacert "$work/tls-cert.pem")
  check "nginx: served again once the burst has drained ($status)" [ "$status" = 200 ]

  check "nginx: the access log has the requests, by path" grep -q '"GET /attestation.pdf HTTP/2.0" 200' "$dir/logs/attestation.access.log"
  check "nginx: the client address cut to /24 in the access log" eval '! grep -q "^127\.0\.0\.1 " "$dir/logs/attestation.access.log" && grep -q "^127\.0\.0\.0 " "$dir/logs/attestation.access.log"'
  harness_stop "$app_pid" || true
  proxy_down_checks nginx "https://$name:$https_port" "$dir"/logs/*.log "$dir/run.err" "$work/nginx-app.log"
  forwarding_checks nginx "https://$name:$https_port" "$app_port"
  harness_stop "$nginx_pid" || true
}

# --- Caddy ------------------------------------------------------------------------------------

check_caddy() {
  echo "caddy: docs/deploy/Caddyfile"
  local dir=$work/caddy app_port http_port https_port
  mkdir -p "$dir/logs" "$dir/data" "$dir/config"
  if caddy fmt "$deploy/Caddyfile" | cmp -s - "$deploy/Caddyfile"; then
    pass "caddy: caddy fmt leaves the file as it is"
  else
    flunk "caddy: caddy fmt leaves the file as it is" "$(caddy fmt "$deploy/Caddyfile" | diff "$deploy/Caddyfile" - | head -n 10)"
  fi
  WRAP="" harness_start_server caddy-app "$work/etc/config.json"
  local app_pid=$server_pid ports
  app_port=$server_port
  ports=$(harness free-port 2)
  read -r http_port https_port <<< "$ports"
  # Ports, no admin endpoint and storage here (global options), the certificate line the file
  # shows commented out, the upstream port, the log path.
  sed -e "s#^\(\s*\)email .*#&\n\1http_port $http_port\n\1https_port $https_port\n\1admin off\n\1storage file_system $dir/data#" \
      -e "s|^\(\s*\)# tls /etc/caddy/tls/fullchain.pem /etc/caddy/tls/privkey.pem|\1tls $work/tls-cert.pem $work/tls-key.pem|" \
      -e "s#reverse_proxy 127.0.0.1:8080 {#reverse_proxy 127.0.0.1:$app_port {#" \
      -e "s#/var/log/caddy/#$dir/logs/#" \
      "$deploy/Caddyfile" > "$dir/Caddyfile"
  local changed
  changed=$(diff "$deploy/Caddyfile" "$dir/Caddyfile" | grep -c '^>' || true)
  export XDG_DATA_HOME=$dir/data XDG_CONFIG_HOME=$dir/config
  if ! HOME=$dir caddy validate --config "$dir/Caddyfile" --adapter caddyfile >"$dir/validate.log" 2>&1; then
    flunk "caddy: caddy validate accepts it" "$(tail -n 5 "$dir/validate.log")"
    harness_stop "$app_pid" || true
    return
  fi
  pass "caddy: caddy validate accepts it ($changed lines templated: ports, admin, storage, certificate, upstream, log path)"
  HOME=$dir caddy run --config "$dir/Caddyfile" --adapter caddyfile >"$dir/stdout.log" 2>"$dir/stderr.log" &
  local caddy_pid=$!
  harness_pids+=("$caddy_pid")
  wait_http "https://$name:$https_port/healthz" --resolve "$name:$https_port:127.0.0.1" --cacert "$work/tls-cert.pem" ||
    { flunk "caddy: starts" "$(tail -n 5 "$dir/stderr.log")"; return; }

  proxy_checks caddy "https://$name:$https_port" "http://$name:$http_port" 308 "405 413 502"
  local status
  status=$(fetch "https://$name:$https_port/" "$dir/home" --resolve "$name:$https_port:127.0.0.1" --cacert "$work/tls-cert.pem")
  check "caddy: no Server header" eval '[ "$status" = 200 ] && [ -z "$(header_of "$dir/home" server)" ]'
  check "caddy: the access log has the requests, by path" grep -q '"uri":"/attestation.pdf"}' "$dir/logs/attestation.access.log"
  check "caddy: the client address cut to /24, no headers in the access log" \
    eval '! grep -q "\"remote_ip\":\"127.0.0.1\"" "$dir/logs/attestation.access.log" && ! grep -q "User-Agent" "$dir/logs/attestation.access.log"'
  harness_stop "$app_pid" || true
  proxy_down_checks caddy "https://$name:$https_port" "$dir"/logs/*.log "$dir/stdout.log" "$dir/stderr.log" "$work/caddy-app.log"
  forwarding_checks caddy "https://$name:$https_port" "$app_port"
  harness_stop "$caddy_pid" || true
  unset XDG_DATA_HOME XDG_CONFIG_HOME
}

# --- Native TLS -------------------------------------------------------------------------------

tls_config() {
  harness config "$work/etc/config.json" -o "$work/etc/config-tls.json" \
    --set server.tls.certificate="$work/tls-cert.pem" --set server.tls.privateKey="$work/tls-key.pem"
}

# tls_checks LABEL: the server in server_url/server_pid speaks HTTPS only.
tls_checks() {
  local label=$1 port=$server_port status
  local resolve=(--resolve "$name:$port:127.0.0.1" --cacert "$work/tls-cert.pem")
  check "$label: announces https://" eval '[[ $server_url == https://* ]]'
  status=$(fetch "https://$name:$port/attestation.pdf$query" "$work/$label.pdf" "${resolve[@]}")
  check "$label: PDF over HTTPS, certificate verified, 200 application/pdf with the name in it" \
    eval '[ "$status" = 200 ] && [ "$(header_of "$work/$label.pdf" content-type)" = application/pdf ] && pdf_names "$work/$label.pdf" "Camille Dupont"'
  status=$(fetch "https://$name:$port/attestation.pdf$other_query" "$work/$label-other.pdf" "${resolve[@]}")
  check "$label: PDF with a name outside Latin-1 over HTTPS" eval '[ "$status" = 200 ] && pdf_names "$work/$label-other.pdf" "Łukasz Wałęsa"'
  status=$(fetch "http://127.0.0.1:$port/healthz" "$work/$label.plain")
  check "$label: plain HTTP on the TLS port gets no answer ($status)" [ "$status" = 000 ]
  # gnutls-cli really offers what it is given (OpenSSL 3's client refuses TLS 1.0 and 1.1 by
  # itself at its default security level, so it proved nothing): a completed handshake fails.
  local version
  for version in 1.0 1.1; do
    check "$label: TLS $version refused by the server (gnutls-cli offering it alone)" \
      eval '! gnutls-cli --insecure --priority "NORMAL:-VERS-ALL:+VERS-TLS$version" -p "$port" 127.0.0.1 </dev/null 2>&1 | grep -q "Handshake was completed"'
  done
  for version in 1.2 1.3; do
    check "$label: TLS $version accepted (gnutls-cli)" \
      eval 'gnutls-cli --insecure --priority "NORMAL:-VERS-ALL:+VERS-TLS$version" -p "$port" 127.0.0.1 </dev/null 2>&1 | grep -q "Handshake was completed"'
  done
}

check_tls() {
  echo "tls: server.tls, the server alone"
  tls_config
  local summary
  summary=$("$server_bin" --config "$work/etc/config-tls.json" --check-config 2>&1 || true)
  check "tls: --check-config says https" eval '[[ $summary == *"écoute : https"* ]]'
  WRAP="" harness_start_server tls "$work/etc/config-tls.json"
  tls_checks tls
  check "tls: SIGTERM, exit 0" harness_stop "$server_pid"
}

# --- systemd ----------------------------------------------------------------------------------

# reload_on_change_check LABEL CONFIG LOG PID URL: a link revoked with attestation-admin (which
# rewrites the revocation list the server reads) is refused without any signal: the server saw
# the change on disk (inotify, which the unit's seccomp filter and sandbox must allow) and
# logged a reload triggered by it.
reload_on_change_check() {
  local label=$1 config=$2 log=$3 pid=$4 url=$5 token records
  token=$(harness mint --config "$config" --person dominique --reason sante --print token)
  records=$(harness records "$log" --count)
  "$admin_bin" revoke --config "$config" "$token" >/dev/null
  check "$label, the revocation list changed on disk is reloaded without a signal (reloadOnChange)" \
    eval 'harness wait-record "$log" --message "configuration reloaded" --field "trigger=file change" --after "$records" \
            --pid "$pid" --timeout 10 >/dev/null &&
          [ "$(curl -s -o /dev/null -w "%{http_code}" "$url/attestation.pdf?t=$token")" = 410 ]'
}

check_systemd() {
  echo "systemd: docs/deploy/attestation-server.service, attestation-server@.service"
  local dir=$work/systemd unit score output
  mkdir -p "$dir"
  for unit in attestation-server.service attestation-server@.service; do
    # verify wants the programs to exist: the built one instead of /usr/local/bin's.
    sed "s#/usr/local/bin/attestation-server#$server_bin#g" "$deploy/$unit" > "$dir/$unit"
    local verify_target=$dir/$unit
    [[ $unit == *@.service ]] && { cp "$dir/$unit" "$dir/attestation-server@8080.service"; verify_target=$dir/attestation-server@8080.service; }
    if output=$(systemd-analyze verify "$verify_target" 2>&1) && [ -z "$output" ]; then
      pass "systemd: systemd-analyze verify $unit"
    else
      flunk "systemd: systemd-analyze verify $unit" "$output"
    fi
    output=$(systemd-analyze security --offline=yes "$verify_target" 2>&1 || true)
    score=$(echo "$output" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
    check "systemd: $unit exposure ${score:-?} (systemd-analyze security --offline; at most $max_exposure)" \
      eval '[ -n "$score" ] && awk -v s="$score" -v m="$max_exposure" "BEGIN { exit !(s <= m) }"'
  done
  # The native-TLS drop-in, where systemd looks for it (a .d directory beside the unit).
  mkdir -p "$dir/attestation-server.service.d"
  cp "$deploy/native-tls.conf" "$dir/attestation-server.service.d/"
  if output=$(SYSTEMD_UNIT_PATH="$dir:" systemd-analyze verify attestation-server.service 2>&1) && [ -z "$output" ]; then
    output=$(SYSTEMD_UNIT_PATH="$dir:" systemd-analyze security --offline=yes attestation-server.service 2>&1 || true)
    score=$(echo "$output" | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
    check "systemd: with native-tls.conf, verify passes, exposure ${score:-?}, the only capability CAP_NET_BIND_SERVICE, no address rule" \
      eval '[ -n "$score" ] && awk -v s="$score" -v m="$max_exposure" "BEGIN { exit !(s <= m) }" &&
            [ "$(grep -c "✗ CapabilityBoundingSet" <<< "$output")" = 1 ] && grep -q "✗ CapabilityBoundingSet=~CAP_NET_(BIND_SERVICE|" <<< "$output" &&
            grep -q "does not define an IP address allow list" <<< "$output"'
  else
    flunk "systemd: systemd-analyze verify with native-tls.conf" "$output"
  fi
  rm -r "$dir/attestation-server.service.d"

  # The template is the same unit but for its port.
  local differences
  differences=$(diff <(sed -n '/^\[Unit\]/,$p' "$deploy/attestation-server.service") \
                     <(sed -n '/^\[Unit\]/,$p' "$deploy/attestation-server@.service" | sed 's/ on port %i$//; s/ --port %i//') || true)
  check "systemd: attestation-server@.service is attestation-server.service with --port %i" [ -z "$differences" ]

  # The server under the unit's seccomp rules: W^X, system calls, address families, namespaces.
  # Not a sanitizer build: AddressSanitizer's leak check needs ptrace and personality(), which the
  # unit forbids (production runs release builds).
  if grep -qa -e __asan_init -e __tsan_init "$server_bin"; then
    note "systemd : $server_bin est construit avec un sanitizer ; le bac à sable n’est vérifié qu’avec un binaire de production (ATTESTATION_BIN=.build/release)."
    return
  fi
  local wrap="python3 $root/Tests/Deploy/unit_seccomp.py $deploy/attestation-server.service --"
  local status port
  check "systemd: --check-config under the unit's seccomp rules" \
    eval 'timeout 60 $wrap "$server_bin" --config "$work/etc/config.json" --check-config >/dev/null 2>"$dir/check.err"'
  WRAP=$wrap harness_start_server seccomp "$work/etc/config.json"
  port=$server_port
  local codes="" path
  for path in "/attestation.pdf$query" "/attestation.pdf$other_query" "/attestation.png$query" "/api/v1/link$query" \
              / /app.js /sw.js /icones/icone-192.png /api/v1/forms /licenses /healthz /metrics; do
    codes+="$(curl -s -o /dev/null -w '%{http_code}' "$server_url$path" || true) "
  done
  check "systemd: under seccomp, every route answers 200" eval '[ "$codes" = "$(printf "200 %.0s" $(seq 12))" ]'
  check "systemd: under seccomp, SIGHUP reloads" eval 'harness reload "$server_log" --pid "$server_pid" >/dev/null &&
    [ "$(curl -s -o /dev/null -w "%{http_code}" "$server_url/attestation.pdf$query")" = 200 ]'
  reload_on_change_check "systemd: under seccomp" "$work/etc/config.json" "$server_log" "$server_pid" "$server_url"
  check "systemd: under seccomp, SIGTERM, exit 0" harness_stop "$server_pid"
  tls_config
  WRAP=$wrap harness_start_server seccomp-tls "$work/etc/config-tls.json"
  tls_checks "systemd: under seccomp, TLS"
  check "systemd: under seccomp, TLS: SIGTERM, exit 0" harness_stop "$server_pid"
  check "systemd: nothing killed by seccomp (no SIGSYS)" eval '! grep -qi "bad system call" "$work"/seccomp*.log'

  # The file-system and privilege sandbox too, where namespaces can be made (root, CAP_SYS_ADMIN).
  if [ "$(id -u)" != 0 ] || ! unshare --mount --pid --fork true 2>/dev/null; then
    note "systemd : bac à sable de fichiers non émulé (il faut root et unshare --mount --pid) ; seccomp seul vérifié."
    return
  fi
  local ns=$work/namespace unshare_pid ns_pid="" url
  mkdir -p "$ns"
  cp -a "$work/etc" "$ns/etc"
  chmod 755 "$ns/etc"
  port=$(harness free-port)
  # The site built into the server, as the unit runs it; its log is JSON (logFormat in the file,
  # as the unit's command line sets no format).
  harness config "$ns/etc/config.json" --set server.port="$port" --delete server.publicDirectory --delete server.tls
  : > "$ns/out"
  "$root/Tests/Deploy/unit_namespace.sh" "$deploy/attestation-server.service" "$ns/etc" "$server_bin" \
    >"$ns/out" 2>"$ns/err" &
  unshare_pid=$!
  harness_pids+=("$unshare_pid")
  local ready=""
  ready=$(harness wait-ready "$ns/out" --pid "$unshare_pid" --log "$ns/err" --print url 2>&1) || true
  ns_pid=$(pgrep -P "$unshare_pid" || true)
  if [ "$ready" != "http://127.0.0.1:$port/" ] || [ -z "$ns_pid" ]; then
    flunk "systemd: the unit's ExecStartPre and ExecStart in its file-system sandbox" "$(tail -n 5 "$ns/err")"
    return
  fi
  url=http://127.0.0.1:$port
  codes=""
  for path in "/attestation.pdf$query" "/attestation.pdf$other_query" "/attestation.png$query" "/api/v1/link$query" \
              / /app.js /sw.js /icones/icone-192.png /api/v1/forms /licenses /healthz /metrics; do
    codes+="$(curl -s -o /dev/null -w '%{http_code}' "$url$path" || true) "
  done
  local identity
  identity=$(awk '/^Uid:/ { u = $2 } /^CapEff:/ { c = $2 } /^NoNewPrivs:/ { n = $2 } /^Seccomp_filters:/ { f = $2 }
                  END { printf "uid %s, CapEff %s, NoNewPrivs %s, %s seccomp filters", u, c, n, f }' "/proc/$ns_pid/status")
  check "systemd: in the sandbox, ExecStartPre's --check-config passed" grep -q "Configuration valide" "$ns/err"
  check "systemd: in the sandbox, ExecStart serves every route ($identity)" eval '[ "$codes" = "$(printf "200 %.0s" $(seq 12))" ]'
  # What the server sees, through its root: the sandbox is really there.
  local seen=/proc/$ns_pid/root
  check "systemd: in the sandbox, /etc/attestation read-only, keys/ and links.jsonl empty, no /proc/meminfo, /dev minimal" \
    eval '! touch "$seen/etc/attestation/x" 2>/dev/null && [ -z "$(ls -A "$seen/etc/attestation/keys")" ] &&
          [ -n "$(ls -A "$ns/etc/keys")" ] && [ ! -s "$seen/etc/attestation/links.jsonl" ] && [ -s "$ns/etc/links.jsonl" ] &&
          [ ! -e "$seen/proc/meminfo" ] && [ "$(ls "$seen/dev" | wc -l)" -le 6 ]'
  check "systemd: in the sandbox, SIGHUP reloads" eval 'harness reload "$ns/err" --pid "$ns_pid" >/dev/null'
  # The administrator revokes from outside the sandbox, where /etc/attestation is writable.
  reload_on_change_check "systemd: in the sandbox" "$ns/etc/config.json" "$ns/err" "$ns_pid" "$url"
  kill -TERM "$ns_pid"
  check "systemd: in the sandbox, SIGTERM, exit 0" harness_stop "$unshare_pid"
}

# --- Docker Compose ---------------------------------------------------------------------------

check_compose() {
  echo "compose: docs/deploy/compose.yaml"
  local output
  if output=$(python3 "$root/Tests/Deploy/check_compose.py" "$deploy/compose.yaml" "$root" 2>&1); then
    while IFS= read -r line; do pass "compose: $line"; done <<< "$output"
  else
    flunk "compose: structure and agreement with the Dockerfile" "$output"
  fi
  if command -v docker-compose >/dev/null 2>&1; then
    if output=$(docker-compose -f "$deploy/compose.yaml" config -q 2>&1); then
      pass "compose: docker-compose $(docker-compose version --short 2>/dev/null) config accepts it (Compose file schema)"
    else
      flunk "compose: docker-compose config accepts it" "$output"
    fi
  else
    note "docker-compose absent : schéma Compose non vérifié (apt-get install docker-compose)."
  fi
}

wants nginx && check_nginx
wants caddy && check_caddy
wants tls && check_tls
wants systemd && check_systemd
wants compose && check_compose

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "check-deploy: ${#failed[@]} of $(( ${#passed[@]} + ${#failed[@]} )) checks failed:" >&2
  printf '  %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "check-deploy: all ${#passed[@]} checks passed."
