#!/usr/bin/env bash
# The commands of docs/deployment.md and docs/runbooks.md, run as written in a throwaway Debian
# root: new mount, PID, network and UTS namespaces over this machine, with /etc and /var as
# overlays whose upper layers are deleted at the end, /usr/local, /run, /root and /opt as empty
# tmpfs (so no Swift toolchain is visible), and attestation.example.org on 127.0.0.1 with a
# self-signed certificate the namespace trusts. Nothing outside changes.
#
#   sudo Tests/Deploy/rehearse_guide.sh > transcript.txt
#
# Needs root with CAP_SYS_ADMIN (unshare, mount, overlay), nginx, caddy, openssl, curl,
# poppler-utils, jq and kubectl (client side only), and binaries built with --static-swift-stdlib in ATTESTATION_BIN (default
# .build-image/release, which scripts/stress/check-image-deps.py makes), bound over .build/release inside
# the namespace only. What the guide runs through systemctl, certbot or docker compose is done
# by hand here (the server started with setpriv as the unit would, a self-signed certificate at
# certbot's paths, kill -HUP for systemctl reload); kubectl runs client-side only (no cluster),
# and the pods' configuration is checked in the layout the kubelet would give it
# (Tests/Deploy/configmap_swap.sh). Prints each command and its output; stops at the first
# failure. Not part of CI: it needs privileges a CI container rarely has.
set -euo pipefail

if [ "${1:-}" != --inside ]; then
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  bin=${ATTESTATION_BIN:-$root/.build-image/release}
  case $bin in /*) ;; *) bin=$root/$bin ;; esac
  [ "$(id -u)" = 0 ] || { echo "rehearse_guide: run as root (namespaces, mounts)." >&2; exit 77; }
  for program in attestation-server attestation-admin; do
    [ -x "$bin/$program" ] || { echo "rehearse_guide: $bin/$program missing." >&2; exit 66; }
    if ldd "$bin/$program" | grep -q libswiftCore; then
      echo "rehearse_guide: $bin/$program needs the Swift runtime; build it with --static-swift-stdlib." >&2; exit 65
    fi
  done
  layer=$(mktemp -d "${TMPDIR:-/tmp}/rehearse-guide.XXXXXX")
  status=0
  unshare --mount --pid --net --uts --fork --kill-child --mount-proc "$0" --inside "$root" "$layer" "$bin" || status=$?
  rm -rf "$layer"
  exit $status
fi
shift
repo=$1 layer=$2 bin=$3
mount --make-rprivate /
ip link set lo up
hostname rehearsal
for d in etc var; do
  mkdir -p "$layer/$d-up" "$layer/$d-work"
  mount -t overlay overlay -o "lowerdir=/$d,upperdir=$layer/$d-up,workdir=$layer/$d-work" "/$d"
done
mount -t tmpfs -o mode=755 tmpfs /usr/local
mkdir -p /usr/local/bin /usr/local/sbin /usr/local/share/ca-certificates
mount -t tmpfs -o mode=755 tmpfs /run
# The guide's .build/release: the static build given (bound here only, the checkout unchanged).
mkdir -p "$repo/.build/release"
mount --bind "$bin" "$repo/.build/release"
mount -t tmpfs -o mode=755 tmpfs /opt        # no Swift toolchain on this "server"
mount -t tmpfs -o mode=700 tmpfs /root
export HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
echo "127.0.0.1 attestation.example.org" >> /etc/hosts
cd "$repo"
step() { echo; echo "\$ $*"; }
run() { step "$@"; eval "$@"; }
# The servers reload by themselves when their files change (reloadOnChange): await_reload LOG
# COUNT waits until LOG has more than COUNT lines with MESSAGE (default `configuration
# reloaded`), 10 s at most, so that what follows sees the reload done.
logged() { grep -c "${2:-configuration reloaded}" "$1" || true; }
await_reload() {
  local _
  for _ in $(seq 100); do [ "$(logged "$1" "${3:-}")" -gt "$2" ] && return 0; sleep 0.1; done
  echo "rehearse_guide: nothing logged (${3:-configuration reloaded}) in $1 within 10 s." >&2
  return 1
}

echo "=== install"
# No network in this namespace: the packages' names are checked with a simulation.
run 'apt-get install -s --no-install-recommends libmicrohttpd12 libhpdf-2.3.0 libqrencode4 libpng16-16 libharfbuzz-subset0 zlib1g libgnutls30 libstdc++6 libgcc-s1 fonts-dejavu-core tzdata nginx | grep -E "^(Inst|[0-9]+ upgraded)"'
run 'ldd .build/release/attestation-server | grep -c swift || true'
run install -m 0755 .build/release/attestation-server .build/release/attestation-admin /usr/local/bin/
run useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin attestation

echo "=== configuration"
run install -d -m 0755 /etc/attestation
run attestation-admin init --config /etc/attestation/config.json --base-url https://attestation.example.org
# What the guide has the administrator write with an editor.
python3 scripts/harness config /etc/attestation/config.json --set server='{"host": "127.0.0.1", "port": 8080, "maxConnectionsPerAddress": 0}'
run cat /etc/attestation/config.json
run ls -l /etc/attestation /etc/attestation/keys
run runuser -u attestation -- attestation-server --config /etc/attestation/config.json --check-config
run attestation-admin mint --config /etc/attestation/config.json --first-name Camille --last-name Dupont --birth-date 01/01/1970 --birth-place Lyon --address \"999 avenue de France\" --zip 75001 --city Paris --reason travail --expires 90d \| tee /root/camille.txt

echo "=== a site of one's own instead of the built-in one"
run install -d -m 0755 /usr/local/share/attestation
run cp -r Public /usr/local/share/attestation/
run runuser -u attestation -- attestation-server --config /etc/attestation/config.json --public-directory /usr/local/share/attestation/Public --check-config \| grep site

echo "=== systemd"
run install -m 0644 docs/deploy/attestation-server.service /etc/systemd/system/
run systemd-analyze verify /etc/systemd/system/attestation-server.service
run 'systemd-analyze security --offline=yes /etc/systemd/system/attestation-server.service | tail -n 1'
# What systemctl start would run, without systemd: ExecStartPre, then ExecStart as the user.
setpriv --reuid=attestation --regid=attestation --init-groups --no-new-privs --bounding-set=-all \
  /usr/local/bin/attestation-server --config /etc/attestation/config.json >/run/server.out 2>/run/server.log &
echo $! > /run/server.pid
python3 scripts/harness wait-ready /run/server.out --pid "$(cat /run/server.pid)" --log /run/server.log >/dev/null
run cat /run/server.out
run curl -s http://127.0.0.1:8080/healthz
# What systemctl reload does once ExecReload's check has passed.
n=$(logged /run/server.log)
run 'kill -HUP $(cat /run/server.pid)'
await_reload /run/server.log "$n"
run cat /run/server.log

echo "=== nginx"
# Stand-in for certbot: a self-signed certificate at certbot's paths, trusted by this root.
mkdir -p /etc/letsencrypt/live/attestation.example.org
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=attestation.example.org \
  -addext subjectAltName=DNS:attestation.example.org -keyout /etc/letsencrypt/live/attestation.example.org/privkey.pem \
  -out /etc/letsencrypt/live/attestation.example.org/fullchain.pem 2>/dev/null
cp /etc/letsencrypt/live/attestation.example.org/fullchain.pem /usr/local/share/ca-certificates/rehearsal.crt
update-ca-certificates >/dev/null 2>&1
run install -m 0644 docs/deploy/nginx-site.conf /etc/nginx/sites-available/attestation
run ln -s ../sites-available/attestation /etc/nginx/sites-enabled/attestation
run rm /etc/nginx/sites-enabled/default
run nginx -t
nginx
sleep 0.5
run curl -sI https://attestation.example.org/healthz
run curl -s -o attestation.pdf -w \''%{http_code} %{content_type}\n'\' \"\$\(cat /root/camille.txt\)\"
run 'pdftotext attestation.pdf - | grep Camille'
rm -f attestation.pdf
run curl -s -o /dev/null -w \''%{http_code}\n'\' https://attestation.example.org/metrics
run curl -s -o /dev/null -w \''%{http_code} %{redirect_url}\n'\' http://attestation.example.org/
run curl -s -o /dev/null -w \''%{size_download} bytes\n'\' --compressed https://attestation.example.org/licenses
run tail -n 3 /var/log/nginx/attestation.access.log
run 'curl -s http://127.0.0.1:8080/metrics | grep "^http_requests_total"'

echo "=== runbook: revoke one link"
link=$(cat /root/camille.txt)
run attestation-admin inspect --config /etc/attestation/config.json \"$link\"
n=$(logged /run/server.log)
run attestation-admin revoke --config /etc/attestation/config.json \"$link\"
await_reload /run/server.log "$n"
run curl -s -o /dev/null -w \''%{http_code}\n'\' \"$link\"
run curl -s \"https://attestation.example.org/api/v1/link?t=${link##*t=}\"
run 'grep "configuration reloaded" /run/server.log | tail -n 1'
run tail -n 2 /etc/attestation/revoked.txt
# By its id, as inspect prints it (what to keep when the link itself is gone).
run attestation-admin mint --config /etc/attestation/config.json --first-name Lou --last-name Garnier --birth-date 09/09/1999 --birth-place Brest --address \"8 quai de la Loire\" --zip 29200 --city Brest --reason famille \| tee /root/lou.txt
id=$(attestation-admin inspect --config /etc/attestation/config.json "$(cat /root/lou.txt)" | sed -n 's/^identifiant : //p')
n=$(logged /run/server.log)
run attestation-admin revoke --config /etc/attestation/config.json $id
await_reload /run/server.log "$n"
run curl -s -o /dev/null -w \''%{http_code}\n'\' \"\$\(cat /root/lou.txt\)\"
# By the person's name, through the register of links.
run attestation-admin mint --config /etc/attestation/config.json --first-name Léa --last-name Morel --birth-date 02/02/1992 --birth-place Metz --address \"7 rue Pasteur\" --zip 57000 --city Metz --reason sante \| tee /root/lea.txt
run attestation-admin links --config /etc/attestation/config.json --name morel
n=$(logged /run/server.log)
run attestation-admin revoke --config /etc/attestation/config.json --name \"Léa Morel\"
await_reload /run/server.log "$n"
run curl -s -o /dev/null -w \''%{http_code}\n'\' \"\$\(cat /root/lea.txt\)\"

echo "=== runbook: attestation-revoke"
run install -m 0755 docs/deploy/attestation-revoke /usr/local/sbin/
run attestation-admin mint --config /etc/attestation/config.json --first-name Dominique --last-name Martin --birth-date 12/05/1985 --birth-place Nantes --address \"12 rue des Lilas\" --zip 44000 --city Nantes --reason sante \| tee /root/dominique.txt
run attestation-revoke \"\$\(cat /root/dominique.txt\)\"
run attestation-revoke \"\$\(cat /root/dominique.txt\)\"

echo "=== runbook: key rotation"
run attestation-admin mint --config /etc/attestation/config.json --first-name Alix --last-name Bernard --birth-date 03/04/1990 --birth-place Rennes --address \"5 place du Marché\" --zip 35000 --city Rennes --reason achats_culturel_cultuel \| tee /root/alix-k1.txt
n=$(logged /run/server.log)
run attestation-admin keygen --config /etc/attestation/config.json --key-id 2027-01
await_reload /run/server.log "$n"
run ls -l /etc/attestation/config.json /etc/attestation/keys
run runuser -u attestation -- attestation-server --config /etc/attestation/config.json --check-config \| head -n 2
run 'grep "configuration reloaded" /run/server.log | tail -n 1'
run attestation-admin mint --config /etc/attestation/config.json --first-name Alix --last-name Bernard --birth-date 03/04/1990 --birth-place Rennes --address \"5 place du Marché\" --zip 35000 --city Rennes --reason achats_culturel_cultuel \| tee /root/alix-2027.txt
run 'attestation-admin inspect --config /etc/attestation/config.json "$(cat /root/alix-2027.txt)" | grep clé'
run 'for f in /root/alix-k1.txt /root/alix-2027.txt; do curl -s -o /dev/null -w "%{http_code}\n" "$(cat $f)"; done'
# Retiring k1: its entry leaves "keys" (an editor in the guide).
n=$(logged /run/server.log)
python3 scripts/harness config /etc/attestation/config.json --delete keys.id=k1
await_reload /run/server.log "$n"
run 'grep -A 3 "\"keys\"" /etc/attestation/config.json'
run runuser -u attestation -- attestation-server --config /etc/attestation/config.json --check-config \| head -n 2
run 'for f in /root/alix-k1.txt /root/alix-2027.txt; do curl -s -o /dev/null -w "%{http_code}\n" "$(cat $f)"; done'
run 'curl -s "$(cat /root/alix-k1.txt)"'
run attestation-admin revoke --config /etc/attestation/config.json \"\$\(cat /root/alix-k1.txt\)\" \|\| echo \"status \$?\"
run shred -u /etc/attestation/keys/k1.key
run ls /etc/attestation/keys

echo "=== runbook: re-mint everyone (CSV)"
cat > /root/people.csv <<'CSV'
first_name,last_name,birth_date,birth_place,address,zip,city,reasons
Camille,Dupont,01/01/1970,Lyon,999 avenue de France,75001,Paris,travail
Dominique,Martin,12/05/1985,Nantes,12 rue des Lilas,44000,Nantes,sante
Alix,Bernard,03/04/1990,Rennes,5 place du Marché,35000,Rennes,achats_culturel_cultuel
CSV
run attestation-admin mint --config /etc/attestation/config.json --csv /root/people.csv --expires 90d --format html -o /root/links.html
run 'grep -c "<li>" /root/links.html'

echo "=== runbook: a reload refused (umask pitfall)"
# keygen keeps the mode config.json had, whatever the umask:
run '(umask 077 && attestation-admin keygen --config /etc/attestation/config.json --key-id 2027-02)'
run ls -l /etc/attestation/config.json
# but a copy made on the administrator's machine under umask 077, pushed with scp -p or rsync -a
# (which keep modes; cp -p here), is 0600: the attestation user cannot read it.
run '(umask 077 && cp /etc/attestation/config.json /root/config.json)'
n=$(logged /run/server.log "reload refused")
run cp -p /root/config.json /etc/attestation/config.json
await_reload /run/server.log "$n" "reload refused"
run ls -l /etc/attestation/config.json
run curl -s http://127.0.0.1:8080/healthz
run 'grep "reload refused" /run/server.log | tail -n 1'
run 'curl -s http://127.0.0.1:8080/metrics | grep "^attestation_configuration"'
run 'runuser -u attestation -- attestation-server --config /etc/attestation/config.json --check-config || echo "status $?"'
n=$(logged /run/server.log)
run chmod 0644 /etc/attestation/config.json
await_reload /run/server.log "$n"
run runuser -u attestation -- attestation-server --config /etc/attestation/config.json --check-config \| head -n 1
run 'grep "configuration reloaded" /run/server.log | tail -n 1'
run curl -s http://127.0.0.1:8080/healthz

echo "=== runbook: a reload refused (revocation list emptied)"
# A link signed with the key now in use, revoked: it must stay refused.
run attestation-admin mint --config /etc/attestation/config.json --first-name Noé --last-name Roux --birth-date 11/11/2001 --birth-place Dijon --address \"4 rue Zola\" --zip 21000 --city Dijon --reason travail \| tee /root/noe.txt
run attestation-revoke \"\$\(cat /root/noe.txt\)\"
run cp /etc/attestation/revoked.txt /root/revoked.txt
n=$(logged /run/server.log "reload refused")
run ': > /etc/attestation/revoked.txt'
await_reload /run/server.log "$n" "reload refused"
run curl -s http://127.0.0.1:8080/healthz
run 'grep "reload refused" /run/server.log | tail -n 1'
run curl -s -o /dev/null -w \''%{http_code}\n'\' \"\$\(cat /root/noe.txt\)\"
n=$(logged /run/server.log)
run 'cat /root/revoked.txt > /etc/attestation/revoked.txt'
await_reload /run/server.log "$n"
run 'grep "configuration reloaded" /run/server.log | tail -n 1'
run curl -s http://127.0.0.1:8080/healthz

echo "=== replicas"
kill -TERM "$(cat /run/server.pid)"; sleep 0.5
run install -m 0644 docs/deploy/attestation-server@.service /etc/systemd/system/
run systemd-analyze verify /etc/systemd/system/attestation-server@8080.service
for port in 8080 8081; do
  setpriv --reuid=attestation --regid=attestation --init-groups --no-new-privs --bounding-set=-all \
    /usr/local/bin/attestation-server --config /etc/attestation/config.json --port $port >/run/server-$port.out 2>/run/server-$port.log &
  echo $! > /run/server-$port.pid
done
for port in 8080 8081; do
  python3 scripts/harness wait-ready /run/server-$port.out --pid "$(cat /run/server-$port.pid)" --log /run/server-$port.log >/dev/null
done
# The upstream block of the site replaced by nginx-upstream-replicas.conf (an editor in the guide).
awk -v upstream=docs/deploy/nginx-upstream-replicas.conf '
  /^upstream attestation \{/ { while ((getline line < upstream) > 0) if (line !~ /^#/) print line; skipping = 1; next }
  skipping && /^\}/ { skipping = 0; next }
  !skipping' docs/deploy/nginx-site.conf > /etc/nginx/sites-available/attestation
run 'grep -A 6 "^upstream" /etc/nginx/sites-available/attestation'
run nginx -t
run nginx -s reload
sleep 0.5
run attestation-admin mint --config /etc/attestation/config.json --first-name Sacha --last-name Petit --birth-date 07/07/2000 --birth-place Lille --address \"3 rue Pasteur\" --zip 59000 --city Lille --reason sport_animaux \| tee /root/sacha.txt
run 'for i in $(seq 6); do curl -s -o /dev/null -w "%{http_code} " "$(cat /root/sacha.txt)"; done; echo'
run attestation-revoke --replica http://127.0.0.1:8080 --replica http://127.0.0.1:8081 \"\$\(cat /root/sacha.txt\)\"
run 'for i in $(seq 6); do curl -s -o /dev/null -w "%{http_code} " "$(cat /root/sacha.txt)"; done; echo'
token=$(sed 's/.*t=//' /root/sacha.txt)
run curl -s -o /dev/null -w \''%{http_code}\n'\' \"http://127.0.0.1:8080/api/v1/link?t=$token\"
run 'tail -n 6 /var/log/nginx/attestation.access.log | cut -d" " -f 4-'
run 'grep -h "configuration reloaded" /run/server-808*.log | tail -n 2'
run 'for port in 8080 8081; do curl -s http://127.0.0.1:$port/metrics | grep "^http_requests_total{route=\"/attestation.pdf\""; done'
# A rolling restart: 8080 stops (SIGTERM), requests keep succeeding through 8081.
kill -TERM "$(cat /run/server-8080.pid)"
run 'for i in $(seq 6); do curl -s -o /dev/null -w "%{http_code} " https://attestation.example.org/healthz; done; echo'
run 'tail -n 2 /run/server-8080.log'
nginx -s quit; sleep 0.5
kill -TERM "$(cat /run/server-8081.pid)"; sleep 0.5

echo "=== native TLS"
run install -d -m 0750 -g attestation /etc/attestation/tls
run install -m 0640 -g attestation /etc/letsencrypt/live/attestation.example.org/fullchain.pem /etc/attestation/tls/cert.pem
run install -m 0640 -g attestation /etc/letsencrypt/live/attestation.example.org/privkey.pem /etc/attestation/tls/key.pem
python3 scripts/harness config /etc/attestation/config.json \
  --set server='{"host": "0.0.0.0", "port": 443, "tls": {"certificate": "tls/cert.pem", "privateKey": "tls/key.pem"}}'
run 'grep -A 7 "\"server\"" /etc/attestation/config.json'
run install -d -m 0755 /etc/systemd/system/attestation-server.service.d
run install -m 0644 docs/deploy/native-tls.conf /etc/systemd/system/attestation-server.service.d/
run systemd-analyze verify /etc/systemd/system/attestation-server.service
run 'systemd-analyze security --offline=yes /etc/systemd/system/attestation-server.service | grep -E "NET_BIND|IPAddress|Overall"'
run runuser -u attestation -- attestation-server --config /etc/attestation/config.json --check-config \| tail -n 1
# As the drop-in runs it: the attestation user with CAP_NET_BIND_SERVICE only.
setpriv --reuid=attestation --regid=attestation --init-groups --no-new-privs --bounding-set=-all,+net_bind_service \
  --inh-caps=+net_bind_service --ambient-caps=+net_bind_service \
  /usr/local/bin/attestation-server --config /etc/attestation/config.json >/run/tls.out 2>/run/tls.log &
echo $! > /run/tls.pid
python3 scripts/harness wait-ready /run/tls.out --pid "$(cat /run/tls.pid)" --log /run/tls.log >/dev/null
run cat /run/tls.out
run curl -s https://attestation.example.org/healthz
run curl -s -o /dev/null -w \''%{http_code} %{content_type} HTTP/%{http_version}\n'\' \"\$\(cat /root/alix-2027.txt\)\"
n=$(logged /run/tls.log "TLS certificate")
kill -HUP "$(cat /run/tls.pid)"
await_reload /run/tls.log "$n" "TLS certificate"
run 'tail -n 2 /run/tls.log'

echo "=== upgrade (binaries replaced under a running server)"
run runuser -u attestation -- .build/release/attestation-server --config /etc/attestation/config.json --check-config \| head -n 1
run install -m 0755 .build/release/attestation-server .build/release/attestation-admin /usr/local/bin/
run curl -s https://attestation.example.org/healthz
run 'readlink /proc/$(cat /run/tls.pid)/exe'

echo "=== kubernetes (client side: no cluster here)"
# The administrator's folder is /etc/attestation here; the pods' config.json is made from it.
run "(cd /etc/attestation && jq 'del(.signingKey) | .revocationList = \"/etc/attestation/revocations/revoked.txt\" | .formsDirectory = \"/etc/attestation/forms\" | .server = {\"host\": \"0.0.0.0\", \"port\": 8080, \"maxConnectionsPerAddress\": 0, \"logFormat\": \"json\"}' config.json > pod-config.json)"
run '(cd /etc/attestation && kubectl -n attestation create configmap attestation-config --from-file=config.json=pod-config.json --dry-run=client -o yaml | head -n 8)'
run '(cd /etc/attestation && kubectl -n attestation create configmap attestation-revocations --from-file=revoked.txt --dry-run=client -o yaml | tail -n 9)'
run 'kubectl kustomize docs/deploy/kubernetes | grep -E "^kind:|image:"'
# What a pod would see: the three ConfigMaps laid out as the kubelet mounts them, then the
# server's own check of that configuration.
mkdir -p /root/pod
cp /etc/attestation/pod-config.json /root/pod/config.json
Tests/Deploy/configmap_swap.sh /etc/attestation/config /root/pod/config.json
Tests/Deploy/configmap_swap.sh /etc/attestation/revocations /etc/attestation/revoked.txt
run 'attestation-server --config /etc/attestation/config/config.json --check-config'

echo "=== caddy"
run install -m 0644 docs/deploy/Caddyfile /etc/caddy/Caddyfile
run caddy validate --config /etc/caddy/Caddyfile 2\>\&1 \| tail -n 1
