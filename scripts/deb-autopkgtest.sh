#!/usr/bin/env bash
# autopkgtest, Debian's own runner of a package's as-installed tests (debian/tests/control), on
# the package of one Debian release (scripts/build-deb.sh): in a throwaway copy of the fresh root
# of that release that scripts/deb-root.sh made (.build-deb/N/root: debootstrap minbase
# and systemd, the release's mirror with its updates and security archives), through
# autopkgtest-virt-chroot. autopkgtest installs the package file and the tests' dependencies
# with apt from that mirror, then runs each test; debian/tests/smoke starts the server as its
# unit says, in a network namespace of its own (no systemd runs in a chroot), mints a link with
# /etc/attestation/config.json, reads its PDF (pdftotext, zbarimg) and sees a revoked link
# refused. The copy is deleted at the end, whatever happens (a process left in it is stopped,
# its /proc unmounted first).
#
# Why a chroot: autopkgtest-virt-unshare needs subordinate ids for root (/etc/subuid), which a
# fresh machine has none of, and schroot, lxc, qemu need more set up; a chroot of the root that
# make test already makes needs nothing more than root.
#
#   scripts/deb-autopkgtest.sh --release 12|13 DEB
#
# Needs root and autopkgtest (scripts/install-deps.sh --deb), and the root of
# scripts/deb-root.sh --release N --root. autopkgtest's output: .build-deb/N/autopkgtest/out/
# (log, summary, each test's output). Messages to the user in French; autopkgtest's log in English.
set -euo pipefail

source "$(dirname "$0")/deb-args.sh"
command -v autopkgtest >/dev/null 2>&1 || fail "autopkgtest manquant (scripts/install-deps.sh --deb l’installe)."

work=$ROOT/.build-deb/$release/autopkgtest
testbed=$work/root
# Stops what still runs in the copy, unmounts its /proc, deletes it.
remove_copy() {
  local real pid
  [ -d "$testbed" ] || return 0
  real=$(realpath "$testbed")
  for pid in /proc/[0-9]*; do
    if [ "$(readlink "$pid/root" 2>/dev/null)" = "$real" ]; then kill -KILL "${pid#/proc/}" 2>/dev/null || true; fi
  done
  if grep -q " $real/proc " /proc/self/mounts; then umount "$real/proc" || umount -l "$real/proc"; fi
  rm -rf --one-file-system "$testbed"
}
trap 'remove_copy' EXIT
trap 'exit 130' INT TERM
remove_copy
rm -rf --one-file-system "$work"
mkdir -p "$work"

say "copie du root neuf ($base)"
cp -ax "$base" "$testbed"
mount -t proc proc "$testbed/proc"

# The tests' source: debian/ as the repository has it, with a changelog of the package's version
# (scripts/build-deb.sh writes the package's own at build time).
source=$work/source/attestation-links
mkdir -p "$source"
cp -r "$ROOT/debian" "$source/"
version=$(dpkg-deb -f "$deb" Version)
cat >"$source/debian/changelog" <<CHANGELOG
attestation-links ($version) $codename; urgency=medium

  * The package tested by scripts/deb-autopkgtest.sh.

 -- $(dpkg-deb -f "$deb" Maintainer)  $(date -R)
CHANGELOG

say "autopkgtest $(basename "$deb") -- chroot (tests : $(sed -n 's/^Tests: //p' "$ROOT/debian/tests/control" | tr '\n' ' '))"
started=$SECONDS
status=0
autopkgtest --output-dir "$work/out" "$deb" "$source/" -- chroot "$testbed" >"$work/autopkgtest.log" 2>&1 || status=$?
# Each test's own lines (ok : …, ÉCHEC : …), then autopkgtest's verdict for each.
cat "$work"/out/*-stdout 2>/dev/null | sed 's/^/  /' || true
sed 's/^/  /' "$work/out/summary" 2>/dev/null || true
if [ "$status" != 0 ]; then
  # No test's output: autopkgtest or the testbed failed before; the end of its log says why.
  ls "$work"/out/*-stdout >/dev/null 2>&1 || tail -n 30 "$work/autopkgtest.log" >&2
  fail "autopkgtest, code de sortie $status (2 : un test sauté, 4 : un test échoué, 8 : aucun test, 12 et 16 : autopkgtest ou le banc de test en panne ; journal : $work/autopkgtest.log)."
fi
say "autopkgtest passé en $((SECONDS - started)) s (tests passés : $(grep -c ' PASS' "$work/out/summary") ; journal : $work/autopkgtest.log)."
