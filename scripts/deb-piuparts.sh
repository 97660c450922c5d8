#!/usr/bin/env bash
# piuparts, Debian's own test of a package's installation, upgrade and purge, on the package of
# one Debian release (scripts/build-deb.sh), in a copy of the fresh root of that release that
# scripts/deb-root.sh made (.build-deb/N/root: debootstrap minbase and systemd; piuparts
# copies it, --existing-chroot, and deletes its copy), with the release's mirror alone (its main,
# updates and security archives) and a local archive of one package, the older version below:
#
#   install and purge   the package file installed with its dependencies, then removed and
#                       purged: piuparts fails on a maintainer script's error, a process left
#                       running, a broken symbolic link, and any file left, changed or removed
#                       after the purge that the chroot did not have (/etc/attestation included)
#   upgrade             the same package repacked with a lower version (VERSION~previous), as an
#                       older release of it: installed from the local archive, then the package
#                       file installed over it, then purged, piuparts checking as above
#
# piuparts's custom scripts, Tests/Deploy/piuparts/, check what it does not look at:
# /etc/attestation written by the first installation, the same file by file (sha256, mode,
# owner) across the upgrade and across apt-get remove, gone after the purge, the system user
# kept. Then, from piuparts's log, what the maintainer scripts said: the postinst's last words
# (the base URL to set and the first link's command), the postrm's list of what purge deletes,
# the private signing key first. As piuparts's policy-rc.d forbids it, no server is started
# here: scripts/deb-autopkgtest.sh starts it.
#
#   scripts/deb-piuparts.sh --release 12|13 DEB
#
# Needs root, piuparts and dpkg-dev (dpkg-scanpackages) (scripts/install-deps.sh --deb), and
# the root of scripts/deb-root.sh --release N --root. The log: .build-deb/N/piuparts/piuparts.log.
# Messages to the user in French; piuparts's log in English.
set -euo pipefail

source "$(dirname "$0")/deb-args.sh"
for tool in piuparts dpkg-scanpackages; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool manquant (scripts/install-deps.sh --deb l’installe)."
done
# The root's archives, as scripts/deb-root.sh wrote them: the release's mirror first,
# then its updates and security archives.
mapfile -t sources < <(grep '^deb ' "$base/etc/apt/sources.list")
[ ${#sources[@]} -gt 0 ] || fail "aucune source d’apt dans $base/etc/apt/sources.list."
mirror=$(awk '{ print $2 }' <<<"${sources[0]}")

work=$ROOT/.build-deb/$release/piuparts
# What an interrupted run left mounted in piuparts's chroot (its /proc, /dev/pts, the archive),
# deepest first, before deleting it.
if [ -d "$work" ]; then
  for target in $(awk -v root="$(realpath "$work")" 'index($2, root "/") == 1 { print $2 }' /proc/self/mounts | sort -r); do
    umount "$target" 2>/dev/null || umount -l "$target" || fail "démontage impossible de $target."
  done
fi
rm -rf --one-file-system "$work"
mkdir -p "$work/archive"
name=$(dpkg-deb -f "$deb" Package)
version=$(dpkg-deb -f "$deb" Version)
older=$version~previous

# The older version: the same programs and maintainer scripts, a lower version number.
say "version antérieure : $name $older (le même paquet, reconditionné)"
dpkg-deb -R "$deb" "$work/repack"
sed -i "s/^Version: .*/Version: $older/" "$work/repack/DEBIAN/control"
dpkg-deb --root-owner-group -Znone -b "$work/repack" "$work/archive/${name}_${older}_$(dpkg-deb -f "$deb" Architecture).deb" >/dev/null
rm -rf "$work/repack"
(cd "$work/archive" && dpkg-scanpackages --multiversion . >Packages 2>/dev/null)

say "piuparts -d $codename ($mirror) : installation et purge, mise à jour depuis $older, purge"
started=$SECONDS
options=(-d "$codename" -m "$mirror main" --existing-chroot "$base" --tmpdir "$work"
  --bindmount "$work/archive" --extra-repo "deb [trusted=yes] file://$work/archive ./"
  --scriptsdir "$ROOT/Tests/Deploy/piuparts" --log-file "$work/piuparts.log")
for line in "${sources[@]:1}"; do options+=(--extra-repo "$line"); done
if ! piuparts "${options[@]}" "$deb" >"$work/piuparts.out" 2>&1; then
  # The first failure with what led to it (a custom script's diff, the files a purge left).
  grep -m 1 -B 15 -A 15 -E "FAIL|ERROR" "$work/piuparts.log" >&2 || tail -n 30 "$work/piuparts.log" >&2
  fail "piuparts (journal : $work/piuparts.log)."
fi
grep -E "^[0-9.ms]+ INFO: (PASS|FAIL|Can't test)|^  (post|pre)_[a-z]+_attestation \(" "$work/piuparts.log" |
  sed 's/^[0-9.ms]* INFO: */  /; s/^  */  /' || true

# What the maintainer scripts said, in piuparts's log.
said() { grep -qF -- "$1" "$work/piuparts.log" || fail "$2 : « $1 » absent du journal de piuparts."; }
said "baseURL" "la fin de l’installation ne dit pas la baseURL à régler"
said "attestation-admin mint --config /etc/attestation/config.json" "la fin de l’installation ne donne pas le premier lien"
said "les clés privées de signature" "la purge ne dit pas supprimer les clés privées"
said "/etc/attestation/keys/k1.key" "la purge ne nomme pas la clé keys/k1.key"
echo "  ok : le postinst dit la baseURL à régler et le premier lien ; la purge nomme la clé privée supprimée"
say "piuparts passé en $((SECONDS - started)) s ($(grep -c "PASS: Installation" "$work/piuparts.log") tests passés ; journal : $work/piuparts.log)."
