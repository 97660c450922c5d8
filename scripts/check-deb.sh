#!/usr/bin/env bash
# Proves the Debian package (scripts/build-deb.sh, make deb) where an administrator meets it: a
# copy (.build-deb/N/check/root) of the fresh root of its Debian release that scripts/deb-root.sh
# made (debootstrap --variant=minbase with the release's updates and security archives and
# systemd, nothing else: no Swift toolchain, no -dev package; make test's stage debN-root, then
# debN-check: scripts/run-stages.py). The root itself is never used, so that other checks can
# copy it side by side. In the copy, no network but loopback (its own network namespace) once
# the package's dependencies are downloaded, with Tests/Deploy/deb_systemctl.sh standing in
# for systemctl (it records what the maintainer scripts ask of systemd and does it from the
# installed unit):
#
#     install         apt-get install ./DEB: status and version (dpkg-query), the Depends
#                     dpkg-shlibdeps computed, the binaries' libraries all found (ldd), no -dev
#                     package; the system user attestation; /etc/attestation as init writes it
#                     (modes and owners, the signing key root's only); the unit enabled
#                     (systemctl is-enabled), the file of debian/ (dh_installsystemd), and
#                     accepted by that release's systemd-analyze verify; the server started by
#                     the postinst as the unit says (its User, ExecStartPre then ExecStart);
#                     postinst's last words name the base URL to set
#     a link          attestation-admin mint with the installed program, the link fetched with
#                     curl as it is: a PDF whose text (pdftotext) has the person's name and whose
#                     QR code (pdftoppm, zbarimg) carries it; a second link revoked, refused (410)
#     upgrade         the same package repacked with a higher version, installed over it: the
#                     server restarted (a new process), every file of /etc/attestation the same
#                     (sha256, mode, owner, group), the first link still served
#     remove          apt-get remove: the server stopped, the programs and the unit gone,
#                     /etc/attestation the same
#     purge           apt-get purge: /etc/attestation gone, the deleted private key named in
#                     purge's output, the unit's symbolic links gone, the user kept
#
#   scripts/check-deb.sh --release 12|13 DEB
#
# Needs root (chroot, mount, unshare), the root of scripts/deb-root.sh --release N --root,
# Debian's package mirror, and on this machine
# curl, poppler-utils (pdftotext, pdftoppm), zbar-tools and iproute2 (scripts/install-deps.sh
# --deb). Messages to the user in French, logs (.build-deb/N/logs/) in English.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "check-deb$release_tag : $*"; }
fail() {
  echo "check-deb$release_tag : ÉCHEC : $*" >&2
  exit 1
}
release_tag=

release=
deb=
in_netns=0
while [ $# -gt 0 ]; do
  case "$1" in
    --release)
      [ $# -ge 2 ] || fail "--release : 12 ou 13 attendu."
      release=$2
      shift
      ;;
    --in-netns) in_netns=1 ;; # internal: the part of the check run in its network namespace
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) fail "option inconnue $1 (acceptées : --release 12|13, --help)" ;;
    *) deb=$1 ;;
  esac
  shift
done
case "$release" in
  12 | 13) release_tag=" (Debian $release)" ;;
  *) fail "--release 12 ou --release 13 attendu." ;;
esac
[ "$(id -u)" -eq 0 ] || fail "root nécessaire (chroot, mount, unshare)."

WORK=$ROOT/.build-deb/$release
ROOTFS=$WORK/check/root
LOGS=$WORK/logs
APT_CACHE=${DEB_CHECK_APT_CACHE:-/var/cache/attestation-deb-$release}

mounts_in_root() {
  [ -d "$ROOTFS" ] || return 0
  local real
  real=$(realpath "$ROOTFS")
  awk -v root="$real" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/self/mounts | sort -r
}

# Stops what still runs in the copy (a server the check started), then undoes its mounts.
undo_mounts() {
  local real pid target
  if [ -d "$ROOTFS" ]; then
    real=$(realpath "$ROOTFS")
    for pid in /proc/[0-9]*; do
      if [ "$(readlink "$pid/root" 2>/dev/null)" = "$real" ]; then kill -KILL "${pid#/proc/}" 2>/dev/null || true; fi
    done
  fi
  for target in $(mounts_in_root); do
    umount "$target" 2>/dev/null || umount -l "$target" 2>/dev/null || true
  done
  if [ -n "$(mounts_in_root)" ]; then
    echo "check-deb$release_tag : ÉCHEC : points de montage restants sous $ROOTFS : $(mounts_in_root | tr '\n' ' ')" >&2
    return 1
  fi
}

# apt-get in the root, the stand-in for systemctl first on the maintainer scripts' PATH.
APT=(apt-get -o "DPkg::Path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")

# A command inside the root, with a clean environment; its output to the caller.
in_root() {
  chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

# check LABEL COMMAND…: runs the command, says ok or fails with the label.
checks=0
check() {
  local label=$1
  shift
  if "$@"; then
    checks=$((checks + 1))
    echo "  ok : $label"
  else
    fail "$label"
  fi
}

if [ "$in_netns" = 0 ]; then
  trap 'undo_mounts || true' EXIT
  trap 'exit 130' INT TERM
fi

[ -f "$WORK/root/.fresh" ] || fail "pas de root neuf dans $WORK/root : scripts/deb-root.sh --release $release --root le fait."

state=/run/check-deb
unit=attestation-server.service
config=/etc/attestation/config.json
snapshot() { # every file and folder of /etc/attestation: path, type, mode, owner, group, sha256
  in_root find /etc/attestation -printf '%p %y %m %u %g\n' | sort | while read -r path type rest; do
    if [ "$type" = f ]; then
      echo "$path $type $rest $(sha256sum "$ROOTFS$path" | cut -d' ' -f1)"
    else
      echo "$path $type $rest"
    fi
  done
}
server_pid() { cat "$ROOTFS$state/$unit.pid" 2>/dev/null || true; }
wait_listening() { # the server's readiness line, on the unit's address
  for _ in $(seq 150); do
    grep -q '"event":"listening"' "$ROOTFS$state/server.out" 2>/dev/null && return 0
    sleep 0.2
  done
  echo "no listening line in 30 s; server.err:" >&2
  tail -n 5 "$ROOTFS$state/server.err" >&2 || true
  return 1
}
PERSON=(--first-name Camille --last-name Dupont --birth-date 01/01/1970 --birth-place Lyon
  --address "999 avenue de France" --zip 75001 --city Paris --reason travail)

if [ "$in_netns" = 0 ]; then
  [ -n "$deb" ] && [ -f "$deb" ] || fail "paquet introuvable : ${deb:-(aucun)}."
  deb=$(realpath "$deb")
  undo_mounts || fail "démontage impossible : $ROOTFS n’est pas supprimé."
  rm -rf --one-file-system "$WORK/check"
  mkdir -p "$LOGS" "$WORK/check"
  cp -ax "$WORK/root" "$ROOTFS"
  mount -t proc proc "$ROOTFS/proc"
  mount --bind /dev "$ROOTFS/dev"
  mount -t devpts -o newinstance,ptmxmode=0666 devpts "$ROOTFS/dev/pts"
  mount --bind "$APT_CACHE/archives" "$ROOTFS/var/cache/apt/archives"
  mkdir -p "$ROOTFS/tmp/deb"
  cp "$deb" "$ROOTFS/tmp/deb/"
  # Downloads first, with the network; everything after runs with loopback alone.
  say "apt-get install --download-only ./$(basename "$deb")"
  if ! in_root apt-get install -y -qq --download-only --no-install-recommends "/tmp/deb/$(basename "$deb")" \
    >"$LOGS/download.log" 2>&1; then
    tail -n 30 "$LOGS/download.log" >&2
    fail "apt-get install --download-only (journal : $LOGS/download.log)."
  fi
  # systemd's place, so that the maintainer scripts ask it to start and stop, and the stand-in.
  mkdir -p "$ROOTFS/run/systemd/system"
  install -m 0755 "$ROOT/Tests/Deploy/deb_systemctl.sh" "$ROOTFS/usr/local/sbin/systemctl"
  # The unit as debian/ has it: the package must install this.
  cp "$ROOT/debian/attestation-links.$unit" "$WORK/expected.service"
  started=$SECONDS
  unshare --net --fork -- "$0" --release "$release" "$deb" --in-netns
  say "paquet vérifié en $((SECONDS - started)) s."
  exit 0
fi

# --- in the network namespace: loopback only -------------------------------------------------------
ip link set lo up
name=$(basename "$deb")
version=$(dpkg-deb -f "$deb" Version)
work=$WORK/check/files
rm -rf "$work"
mkdir -p "$work"

say "installation : apt-get install ./$name"
in_root "${APT[@]}" install -y --no-install-recommends "/tmp/deb/$name" >"$LOGS/install.log" 2>&1 ||
  { tail -n 30 "$LOGS/install.log" >&2; fail "apt-get install ./$name (journal : $LOGS/install.log)."; }
check "dpkg-query : installé, version $version" \
  test "$(in_root dpkg-query -W -f='${Status} ${Version}' attestation-links)" = "install ok installed $version"
depends=$(in_root dpkg-query -W -f='${Depends}' attestation-links)
echo "$depends" | tr ',' '\n' | sed 's/^ */    Depends : /' >"$LOGS/depends.txt"
check "Depends : libmicrohttpd, libhpdf, libqrencode, cairo, HarfBuzz, libpng, Nettle (dpkg-shlibdeps), les polices, tzdata, adduser, procps" \
  bash -c 'for p in libmicrohttpd12 libhpdf-2.3.0 libqrencode4 libcairo2 libharfbuzz-subset0 libpng16-16 libhogweed6 libc6 \
                     fonts-dejavu-core fonts-urw-base35 tzdata adduser procps; do
             grep -Eq "(^|, )$p(t64)? " <<<"$1, " || grep -Eq "(^|, )$p(t64)?(,|$)" <<<"$1" || { echo "Depends sans $p : $1" >&2; exit 1; }
           done' _ "$depends"
check "aucun paquet -dev, pas de chaîne Swift dans le root" \
  bash -c '! chroot "$1" dpkg-query -W -f="\${Package}\n" | grep -q -- "-dev$" && [ ! -e "$1/opt/swift" ] && [ ! -e "$1/usr/bin/swift" ]' _ "$ROOTFS"
check "ldd : toutes les bibliothèques trouvées, aucune libswift" \
  bash -c 'for p in attestation-server attestation-admin; do
             out=$(chroot "$1" ldd /usr/bin/$p) || exit 1
             ! grep -q "not found" <<<"$out" && ! grep -q libswift <<<"$out" || { echo "$out" >&2; exit 1; }
           done' _ "$ROOTFS"
check "les deux programmes sur le PATH (/usr/bin)" \
  in_root bash -c 'command -v attestation-admin && command -v attestation-server' >/dev/null
passwd=$(in_root getent passwd attestation || true)
check "utilisateur système attestation (uid < 1000, /usr/sbin/nologin) : $passwd" \
  bash -c 'IFS=: read -r _ _ uid gid _ home shell <<<"$1" && [ "$uid" -lt 1000 ] && [ "$shell" = /usr/sbin/nologin ] &&
           [ "$home" = /nonexistent ] && [ "$(chroot "$2" getent group attestation | cut -d: -f3)" = "$gid" ]' _ "$passwd" "$ROOTFS"
modes=$(in_root stat -c '%n %a %U %G' /etc/attestation /etc/attestation/config.json /etc/attestation/revoked.txt \
  /etc/attestation/keys /etc/attestation/keys/k1.key 2>&1 || true)
check "/etc/attestation : config.json et revoked.txt 0644, keys/ 0700 et keys/k1.key 0600 à root" \
  test "$modes" = "/etc/attestation 755 root root
/etc/attestation/config.json 644 root root
/etc/attestation/revoked.txt 644 root root
/etc/attestation/keys 700 root root
/etc/attestation/keys/k1.key 600 root root"
check "la clé de signature illisible par l’utilisateur attestation" \
  bash -c '! chroot "$1" setpriv --reuid=attestation --regid=attestation --init-groups cat /etc/attestation/keys/k1.key >/dev/null 2>&1' _ "$ROOTFS"
installed_unit=$(in_root dpkg -L attestation-links | grep "/systemd/system/$unit\$" || true)
check "l’unité installée ($installed_unit) est debian/attestation-links.$unit" \
  diff -u "$WORK/expected.service" "$ROOTFS$installed_unit"
check "systemd-analyze verify $installed_unit ($(in_root /usr/bin/systemctl --version | head -n 1 | cut -d' ' -f1,2))" \
  bash -c 'out=$(chroot "$1" systemd-analyze verify "$2" 2>&1) && [ -z "$out" ] || { echo "$out" >&2; exit 1; }' _ "$ROOTFS" "$installed_unit"
check "activée au démarrage (systemctl is-enabled : $(in_root /usr/bin/systemctl --root=/ is-enabled $unit 2>&1 || true))" \
  test "$(in_root /usr/bin/systemctl --root=/ is-enabled $unit 2>&1)" = enabled
check "le postinst a demandé à systemd de la démarrer (systemctl start)" \
  grep -qE "(^| )start $unit\$" "$ROOTFS$state/systemctl.log"
started() { grep -q "Configuration valide" "$ROOTFS$state/ExecStartPre.out" && wait_listening; }
check "le serveur démarré comme le dit l’unité : ExecStartPre (--check-config) passé, ExecStart à l’écoute" started
pid=$(server_pid)
check "le serveur tourne sous l’utilisateur attestation, sans capacité ($(awk '/^Uid:|^CapEff:/ { printf "%s %s ", $1, $2 }' "/proc/$pid/status"))" \
  bash -c '[ "$(awk "/^Uid:/ { print \$2 }" /proc/$1/status)" = "$(chroot "$2" id -u attestation)" ] &&
           [ "$(awk "/^CapEff:/ { print \$2 }" /proc/$1/status)" = 0000000000000000 ]' _ "$pid" "$ROOTFS"
check "la fin de l’installation dit l’adresse des liens à régler (baseURL)" \
  bash -c 'grep -q "baseURL" "$1" && grep -q "http://127.0.0.1:8080" "$1" && grep -q "attestation-admin mint --config /etc/attestation/config.json" "$1"' _ "$LOGS/install.log"

say "un lien : attestation-admin mint, le PDF par curl"
link=$(in_root attestation-admin mint --config $config "${PERSON[@]}" --format url)
revoked_link=$(in_root attestation-admin mint --config $config "${PERSON[@]}" --first-name Dominique --format url)
check "le lien donné par mint commence par la baseURL écrite à l’installation (http://127.0.0.1:8080/attestation.pdf?t=…)" \
  bash -c '[[ $1 == http://127.0.0.1:8080/attestation.pdf\?t=* ]]' _ "$link"
answer=$(curl -sS -o "$work/attestation.pdf" -w '%{http_code} %{content_type}' "$link" || true)
check "GET du lien : $answer" test "$answer" = "200 application/pdf"
pdftotext -layout "$work/attestation.pdf" "$work/attestation.txt"
check "pdftotext : Camille Dupont, son adresse, « Fait le » du jour" \
  bash -c 'for w in "Camille Dupont" "999 avenue de France" "Fait le $(TZ=Europe/Paris date +%d/%m/%Y)"; do
             grep -qF "$w" "$1" || { echo "pdftotext : « $w » absent" >&2; exit 1; }
           done' _ "$work/attestation.txt"
pdftoppm -r 150 -png -f 1 -l 1 "$work/attestation.pdf" "$work/page"
payload=$(zbarimg --raw -q "$work"/page-1.png 2>/dev/null || true)
check "zbarimg : le QR code porte « Nom: Dupont », « Prenom: Camille »" \
  bash -c 'grep -qF "Nom: Dupont" <<<"$1" && grep -qF "Prenom: Camille" <<<"$1"' _ "$payload"
in_root attestation-admin revoke --config $config "$revoked_link" >"$LOGS/revoke.log" 2>&1
check "un lien révoqué par attestation-admin revoke est refusé (410) sans signal" \
  bash -c 'for _ in $(seq 50); do [ "$(curl -s -o /dev/null -w "%{http_code}" "$1")" = 410 ] && exit 0; sleep 0.2; done; exit 1' _ "$revoked_link"

say "mise à jour : le même paquet, version $version+1"
snapshot >"$work/etc-before.txt"
repack=$work/repack
dpkg-deb -R "$deb" "$repack"
sed -i "s/^Version: .*/Version: $version+1/" "$repack/DEBIAN/control"
dpkg-deb --root-owner-group -Znone -b "$repack" "$ROOTFS/tmp/deb/attestation-links_$version+1.deb" >/dev/null
before_pid=$(server_pid)
: >"$ROOTFS$state/systemctl.log"
in_root "${APT[@]}" install -y --no-install-recommends "/tmp/deb/attestation-links_$version+1.deb" >"$LOGS/upgrade.log" 2>&1 ||
  { tail -n 30 "$LOGS/upgrade.log" >&2; fail "mise à jour (journal : $LOGS/upgrade.log)."; }
check "dpkg-query : version $version+1" \
  test "$(in_root dpkg-query -W -f='${Status} ${Version}' attestation-links)" = "install ok installed $version+1"
snapshot >"$work/etc-after-upgrade.txt"
check "/etc/attestation inchangé, fichier par fichier (sha256, mode, propriétaire, groupe : $(wc -l <"$work/etc-before.txt") entrées)" \
  diff -u "$work/etc-before.txt" "$work/etc-after-upgrade.txt"
check "la mise à jour a redémarré le serveur (systemctl restart ; pid $before_pid, puis $(server_pid))" \
  bash -c 'grep -qE "(^| )restart $1\$" "$2" && [ -n "$4" ] && [ "$3" != "$4" ] && ! kill -0 "$3" 2>/dev/null' \
  _ "$unit" "$ROOTFS$state/systemctl.log" "$before_pid" "$(server_pid)"
still_served() {
  started && [ "$(curl -s -o /dev/null -w "%{http_code}" "$link")" = 200 ] &&
    [ "$(curl -s -o /dev/null -w "%{http_code}" "$revoked_link")" = 410 ]
}
check "après la mise à jour, ExecStartPre et ExecStart repassés, le premier lien sert encore son PDF, le révoqué reste refusé" \
  still_served

say "désinstallation : apt-get remove"
pid=$(server_pid)
: >"$ROOTFS$state/systemctl.log"
in_root "${APT[@]}" remove -y attestation-links >"$LOGS/remove.log" 2>&1 ||
  { tail -n 30 "$LOGS/remove.log" >&2; fail "apt-get remove (journal : $LOGS/remove.log)."; }
check "le prerm a arrêté le serveur (systemctl stop ; pid $pid terminé)" \
  bash -c 'grep -qE "(^| )stop $1\$" "$2" && ! kill -0 "$3" 2>/dev/null' _ "$unit" "$ROOTFS$state/systemctl.log" "$pid"
check "dpkg-query : supprimé, configuration gardée (deinstall ok config-files)" \
  test "$(in_root dpkg-query -W -f='${Status}' attestation-links)" = "deinstall ok config-files"
check "programmes et unité partis" \
  bash -c '[ ! -e "$1/usr/bin/attestation-server" ] && [ ! -e "$1/usr/bin/attestation-admin" ] && [ ! -e "$1$2" ]' _ "$ROOTFS" "$installed_unit"
snapshot >"$work/etc-after-remove.txt"
check "/etc/attestation gardé, inchangé" diff -u "$work/etc-before.txt" "$work/etc-after-remove.txt"

say "purge : apt-get purge"
in_root "${APT[@]}" purge -y attestation-links >"$LOGS/purge.log" 2>&1 ||
  { tail -n 30 "$LOGS/purge.log" >&2; fail "apt-get purge (journal : $LOGS/purge.log)."; }
check "/etc/attestation supprimé" test ! -e "$ROOTFS/etc/attestation"
check "la purge a dit supprimer la clé privée keys/k1.key, la configuration et le registre" \
  bash -c 'grep -q "clés privées" "$1" && grep -q "/etc/attestation/keys/k1.key" "$1" &&
           grep -q "/etc/attestation/config.json" "$1" && grep -q "/etc/attestation/links.jsonl" "$1"' _ "$LOGS/purge.log"
check "plus de lien d’activation de l’unité, paquet inconnu de dpkg" \
  bash -c '[ -z "$(find "$1/etc/systemd" -name "$2" 2>/dev/null)" ] &&
           ! chroot "$1" dpkg-query -W -f="\${Status}" attestation-links 2>/dev/null | grep -q installed' _ "$ROOTFS" "$unit"
check "l’utilisateur attestation reste (la politique Debian ne supprime pas un utilisateur système)" \
  in_root getent passwd attestation >/dev/null
say "$checks vérifications passées ($name)."
