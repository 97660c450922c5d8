#!/usr/bin/env bash
# What Debian's own tools do not check of the Debian package (scripts/build-deb.sh, make deb),
# once installed in a fresh root of its release. The tools do the rest, each in its own copy of
# that root (scripts/deb-root.sh): piuparts the installation, upgrade, removal and purge
# (scripts/deb-piuparts.sh), autopkgtest the package's smoke tests, debian/tests/ (the server
# as its unit starts it, a link's PDF, a revoked link refused: scripts/deb-autopkgtest.sh);
# lintian and the manual pages are scripts/build-deb.sh's. Here, in a copy of the root
# (.build-deb/N/check/root), apt-get install ./DEB with Tests/Deploy/deb_systemctl.sh standing
# in for systemctl (it records what the maintainer scripts ask of systemd), then:
#
#   - the Depends that dpkg-shlibdeps computed for this release, and those read at run time;
#   - the system user attestation; /etc/attestation as init writes it (modes and owners, the
#     signing key unreadable by the server's user);
#   - both units accepted by that release's systemd-analyze verify, their exposure by its
#     systemd-analyze security at most 2.0 (as scripts/check-deploy.sh asks of docs/deploy's);
#   - the server's unit enabled, and the postinst asking systemd to start it; an upgrade (the
#     same programs repacked with a higher version) asking it to restart the server, and
#     apt-get remove to stop it (piuparts's policy-rc.d forbids all three, and no systemd runs in
#     autopkgtest's chroot).
#
#   scripts/check-deb.sh --release 12|13 DEB
#
# Needs root (chroot, mount) and the root of scripts/deb-root.sh --release N --root. The copy
# is kept until the next run (scripts/deb-root.sh --remove deletes it). Messages to the user in
# French, logs (.build-deb/N/logs/) in English.
set -euo pipefail

source "$(dirname "$0")/deb-args.sh"

WORK=$ROOT/.build-deb/$release
LOGS=$WORK/logs
APT_CACHE=${DEB_CHECK_APT_CACHE:-/var/cache/attestation-deb-$release}
ROOTFS=$WORK/check/root

# Stops what still runs in the copy, then undoes its mounts.
undo_mounts() {
  local real pid target
  real=$(realpath -m "$ROOTFS")
  for pid in /proc/[0-9]*; do
    if [ "$(readlink "$pid/root" 2>/dev/null)" = "$real" ]; then kill -KILL "${pid#/proc/}" 2>/dev/null || true; fi
  done
  for target in $(awk -v root="$real" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/self/mounts | sort -r); do
    umount "$target" 2>/dev/null || umount -l "$target" || fail "démontage impossible de $target."
  done
}
in_root() { # a command inside the copy, with a clean environment
  chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}
checks=0
check() { # check LABEL COMMAND…: runs the command, says ok or fails with the label
  local label=$1
  shift
  if "$@"; then
    checks=$((checks + 1))
    echo "  ok : $label"
  else
    fail "$label"
  fi
}

name=$(basename "$deb")
trap 'undo_mounts' EXIT
trap 'exit 130' INT TERM
undo_mounts
rm -rf --one-file-system "$WORK/check"
mkdir -p "$LOGS" "$WORK/check"
cp -ax "$WORK/root" "$ROOTFS"
mount -t proc proc "$ROOTFS/proc"
mount --bind "$APT_CACHE/archives" "$ROOTFS/var/cache/apt/archives"
mkdir -p "$ROOTFS/tmp/deb" "$ROOTFS/run/systemd/system"
cp "$deb" "$ROOTFS/tmp/deb/"
# systemd's place, so that the maintainer scripts ask it to start the server, and the stand-in.
install -m 0755 "$ROOT/Tests/Deploy/deb_systemctl.sh" "$ROOTFS/usr/local/sbin/systemctl"
say "installation : apt-get install ./$name"
started=$SECONDS
in_root apt-get -o "DPkg::Path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" install -y \
  --no-install-recommends "/tmp/deb/$name" >"$LOGS/install.log" 2>&1 ||
  { tail -n 30 "$LOGS/install.log" >&2; fail "apt-get install ./$name (journal : $LOGS/install.log)."; }

depends=$(in_root dpkg-query -W -f='${Depends}' attestation-links)
check "Depends : libmicrohttpd, libhpdf, libqrencode, cairo, HarfBuzz, libpng, Nettle (dpkg-shlibdeps), les polices, tzdata, adduser, procps" \
  bash -c 'for p in libmicrohttpd12 libhpdf-2.3.0 libqrencode4 libcairo2 libharfbuzz-subset0 libpng16-16 libhogweed6 libc6 \
                     fonts-dejavu-core fonts-urw-base35 tzdata adduser procps; do
             grep -Eq "(^|, )$p(t64)?( |,|$)" <<<"$1" || { echo "Depends sans $p : $1" >&2; exit 1; }
           done' _ "$depends"
passwd=$(in_root getent passwd attestation || true)
check "utilisateur système attestation (uid < 1000, /usr/sbin/nologin, son groupe) : $passwd" \
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
for unit in attestation-server.service attestation-server@.service; do
  file=$(in_root dpkg -L attestation-links | grep "/systemd/system/$unit\$" || true)
  target=$file
  [[ $unit != *@.service ]] || { target=${file%@.service}@8080.service; cp "$ROOTFS$file" "$ROOTFS$target"; }
  check "systemd-analyze verify $file ($(in_root /usr/bin/systemctl --version | head -n 1 | cut -d' ' -f1,2))" \
    bash -c 'out=$(chroot "$1" systemd-analyze verify "$2" 2>&1) && [ -z "$out" ] || { echo "$out" >&2; exit 1; }' _ "$ROOTFS" "$target"
  score=$(in_root systemd-analyze security --offline=yes "$target" 2>&1 | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
  check "systemd-analyze security $unit : exposition ${score:-?} (au plus 2.0)" \
    awk -v s="${score:-99}" 'BEGIN { exit !(s <= 2.0) }'
  [ "$target" = "$file" ] || rm "$ROOTFS$target"
done
unit=attestation-server.service
check "$unit activée au démarrage (systemctl is-enabled : $(in_root /usr/bin/systemctl --root=/ is-enabled $unit 2>&1 || true))" \
  test "$(in_root /usr/bin/systemctl --root=/ is-enabled $unit 2>&1)" = enabled
check "le postinst a demandé à systemd de la démarrer (systemctl start $unit)" \
  grep -qE "(^| )start $unit\$" "$ROOTFS/run/check-deb/systemctl.log"

# What the maintainer scripts ask of systemd later, which piuparts's policy-rc.d hides from it:
# the same programs with a higher version installed over these restart the server (dh_installsystemd's
# restart after upgrade), and apt-get remove stops it (the prerm).
version=$(dpkg-deb -f "$deb" Version)
repack=$WORK/check/repack
dpkg-deb -R "$deb" "$repack"
sed -i "s/^Version: .*/Version: $version+1/" "$repack/DEBIAN/control"
dpkg-deb --root-owner-group -Znone -b "$repack" "$ROOTFS/tmp/deb/attestation-links_$version+1.deb" >/dev/null
rm -rf "$repack"
: >"$ROOTFS/run/check-deb/systemctl.log"
in_root apt-get -o "DPkg::Path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" install -y \
  --no-install-recommends "/tmp/deb/attestation-links_$version+1.deb" >"$LOGS/upgrade.log" 2>&1 ||
  { tail -n 30 "$LOGS/upgrade.log" >&2; fail "mise à jour vers $version+1 (journal : $LOGS/upgrade.log)."; }
check "la mise à jour ($version, puis $version+1) a demandé à systemd de redémarrer le serveur (systemctl restart $unit)" \
  grep -qE "(^| )(try-)?restart $unit\$" "$ROOTFS/run/check-deb/systemctl.log"
: >"$ROOTFS/run/check-deb/systemctl.log"
in_root apt-get -o "DPkg::Path=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" remove -y \
  attestation-links >"$LOGS/remove.log" 2>&1 ||
  { tail -n 30 "$LOGS/remove.log" >&2; fail "apt-get remove (journal : $LOGS/remove.log)."; }
check "apt-get remove a demandé à systemd d’arrêter le serveur (systemctl stop $unit)" \
  grep -qE "(^| )stop $unit\$" "$ROOTFS/run/check-deb/systemctl.log"
say "$checks vérifications passées en $((SECONDS - started)) s ($name)."
