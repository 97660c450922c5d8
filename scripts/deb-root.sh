#!/usr/bin/env bash
# The fresh root of a Debian release in which the Debian package (scripts/build-deb.sh, make
# deb) is proved, where an administrator meets it: debootstrap --variant=minbase in
# .build-deb/N/root (ignored by git), with the release's updates and security archives and
# systemd, nothing else (no Swift toolchain, no -dev package). Kept for a week (below), never
# used itself: piuparts (scripts/deb-piuparts.sh), autopkgtest (scripts/deb-autopkgtest.sh)
# and scripts/check-deb.sh each work in a copy of it, side by side (make test's stages debN-root,
# then debN-piuparts, debN-autopkgtest and debN-check: scripts/run-stages.py).
#
#   --root      the fresh root, kept if this script made it less than a week ago (DEB_ROOT_FRESH=1
#               makes it anew); the downloaded packages are kept in /var/cache/attestation-deb-N
#               (DEB_CHECK_APT_CACHE), so a new one is fast too
#   --remove    stop what runs in .build-deb/N, unmount what is mounted there, delete it
#
#   scripts/deb-root.sh --release 12|13 --root | --remove
#
# Needs root (debootstrap, chroot, mount) and Debian's package mirror, the first one of this
# machine's apt sources (debootstrap: scripts/install-deps.sh --deb). Messages to the user in
# French, logs (.build-deb/N/logs/) in English.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "deb-root$release_tag : $*"; }
fail() {
  echo "deb-root$release_tag : ÉCHEC : $*" >&2
  exit 1
}
release_tag=

release=
mode=
while [ $# -gt 0 ]; do
  case "$1" in
    --release)
      [ $# -ge 2 ] || fail "--release : 12 ou 13 attendu."
      release=$2
      shift
      ;;
    --root | --remove) mode=${1#--} ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) fail "option inconnue $1 (acceptées : --release 12|13, --root, --remove, --help)" ;;
  esac
  shift
done
case "$release" in
  12) codename=bookworm ;;
  13) codename=trixie ;;
  *) fail "--release 12 ou --release 13 attendu." ;;
esac
release_tag=" (Debian $release)"
[ -n "$mode" ] || fail "--root ou --remove attendu."
[ "$(id -u)" -eq 0 ] || fail "root nécessaire (debootstrap, chroot, mount)."

WORK=$ROOT/.build-deb/$release
ROOTFS=$WORK/root
LOGS=$WORK/logs
APT_CACHE=${DEB_CHECK_APT_CACHE:-/var/cache/attestation-deb-$release}

# Stops every process whose root is under .build-deb/N (the root, a check's copy), then undoes
# every mount there, deepest first.
undo_mounts() {
  local real pid target
  real=$(realpath -m "$WORK")
  for pid in /proc/[0-9]*; do
    case "$(readlink "$pid/root" 2>/dev/null)" in "$real"/*) kill -KILL "${pid#/proc/}" 2>/dev/null || true ;; esac
  done
  for target in $(awk -v root="$real" 'index($2, root "/") == 1 { print $2 }' /proc/self/mounts | sort -r); do
    umount "$target" 2>/dev/null || umount -l "$target" || fail "démontage impossible de $target : $WORK n’est pas supprimé."
  done
}
in_root() { # a command inside the root, with a clean environment
  chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

undo_mounts
# The root is never changed once made (each tool works in a copy of it): kept for the next run,
# made anew when this script changed (its sha256 is in .fresh) or after a week, so that a kept
# root misses at most a week of the release's updates. A cold CI run made it in 2 to 6 minutes
# of its 45 (docs/testing.md); reused, it costs nothing.
made_by=$(sha256sum "$0" | cut -d' ' -f1)
if [ "$mode" = root ] && [ "${DEB_ROOT_FRESH:-}" != 1 ] && [ -f "$ROOTFS/.fresh" ] &&
  [ "$(cat "$ROOTFS/.fresh")" = "$made_by" ] && [ -n "$(find "$ROOTFS/.fresh" -mtime -7)" ]; then
  find "$WORK" -mindepth 1 -maxdepth 1 ! -name root ! -name logs -exec rm -rf --one-file-system {} +
  say "root gardé, fait le $(date -r "$ROOTFS/.fresh" '+%d/%m/%Y à %H:%M') par ce même script (DEB_ROOT_FRESH=1 pour le refaire)."
  exit 0
fi
rm -rf --one-file-system "$WORK"
if [ "$mode" = remove ]; then
  say "$WORK supprimé."
  exit 0
fi

command -v debootstrap >/dev/null 2>&1 || fail "debootstrap manquant (scripts/install-deps.sh --deb l’installe)."
trap 'undo_mounts' EXIT
trap 'exit 130' INT TERM
sources=$(grep -hE '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null || true)
mirror=$(grep -o 'https\?://[^ ]*' <<<"$sources" | grep -v security | head -n 1 || true)
security=$(grep -o 'https\?://[^ ]*security[^ ]*' <<<"$sources" | head -n 1 || true)
[ -n "$mirror" ] || fail "aucun miroir Debian dans les sources d’apt de cette machine."
mkdir -p "$LOGS" "$APT_CACHE/debootstrap" "$APT_CACHE/archives/partial"
say "debootstrap --variant=minbase $codename ($mirror)"
started=$SECONDS
if ! debootstrap --variant=minbase --cache-dir="$APT_CACHE/debootstrap" "$codename" "$ROOTFS" "$mirror" \
  >"$LOGS/debootstrap.log" 2>&1; then
  tail -n 30 "$LOGS/debootstrap.log" >&2
  fail "debootstrap $codename (journal : $LOGS/debootstrap.log)."
fi
{
  echo "deb $mirror $codename main"
  echo "deb $mirror $codename-updates main"
  [ -z "$security" ] || echo "deb $security $codename-security main"
} >"$ROOTFS/etc/apt/sources.list"
rm -f "$ROOTFS"/etc/apt/sources.list.d/*
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
mount -t proc proc "$ROOTFS/proc"
mount --bind "$APT_CACHE/archives" "$ROOTFS/var/cache/apt/archives"
# A Debian server runs systemd: its package, and nothing else beyond minbase.
if ! in_root bash -c "apt-get update -qq && apt-get install -y -qq --no-install-recommends systemd" \
  >"$LOGS/systemd.log" 2>&1; then
  tail -n 30 "$LOGS/systemd.log" >&2
  fail "apt-get install systemd (journal : $LOGS/systemd.log)."
fi
in_root apt-get clean
echo "$made_by" >"$ROOTFS/.fresh"
say "root neuf en $((SECONDS - started)) s : $(in_root dpkg-query -W | wc -l) paquets, $(in_root systemctl --version | head -n 1)"
