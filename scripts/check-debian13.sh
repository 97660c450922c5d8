#!/usr/bin/env bash
# Proves on this machine that the project builds, passes its Swift suite and serves on Debian 13
# (trixie), as it does on Debian 12: a Debian 13 root made with debootstrap in .build-debian13/
# (ignored by git), the README's packages installed there by scripts/install-deps.sh, this machine's
# Swift toolchain and Swift package copies bound in read-only, then, inside the root, in three
# steps that make test runs as stages of their own (scripts/run-stages.py):
#
#   --prepare  the root (debootstrap, once), the toolchain's packages, the README's and what
#              makes the Debian package (scripts/install-deps.sh --test --deb);
#   --build    the build with the tests: debug, as make check builds them, from the checkout as
#              it is now (the tests and the two programs they run); then the package's: the two
#              programs, release, with the Swift runtime linked in (--static-swift-stdlib, in
#              .build-static: Swift Testing has no static module, so the tests cannot be built
#              so, "no such module 'Testing'"), and the Debian 13 package from them
#              (scripts/build-deb.sh: lintian, manual pages), copied to out/deb/debian13/ for make
#              test's deb13 stages (piuparts, autopkgtest, scripts/check-deb.sh --release 13)
#              (--package: the package's build and the package alone);
#   --check    the Swift suite on the debug build; the Dockerfile's runtime package names
#              resolved on Debian 13 (apt-get install -s); then as an administrator would, with
#              the package's release programs: attestation-admin init and mint in an empty
#              folder, the server started, a PDF fetched with curl, read with pdftotext (the
#              person's name, a date) and its QR code with zbarimg (the payload's name), then
#              SIGTERM and exit status 0.
#
# The root is kept between runs (packages, build folder), so a second run only rebuilds what
# changed; --fresh starts from a new root, --remove deletes it. Whatever happens, the mounts are
# undone on exit (processes left in the root are stopped first), and the script says which step
# failed, with the end of its log (full logs in .build-debian13/logs/).
#
#   scripts/check-debian13.sh            the three steps
#   scripts/check-debian13.sh --prepare | --build | --package | --check      one of them
#   scripts/check-debian13.sh --fresh    the three in a root made anew
#   scripts/check-debian13.sh --remove   unmount and delete .build-debian13
#   scripts/check-debian13.sh --filter F only the Swift tests that F selects (swift test --filter)
#                                        after the build: the everyday loop on Debian 13
#
# Needs root (debootstrap, chroot, mount) and Debian's package mirror, as scripts/install-deps.sh.
# Downloaded packages are kept in /var/cache/attestation-debian13 (DEBIAN13_APT_CACHE), for the
# next root on this machine, whatever the clone.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK="$ROOT/.build-debian13"
ROOTFS="$WORK/root"
LOGS="$WORK/logs"
RELEASE=trixie
# Downloaded .deb files, kept on this machine between runs and between clones.
APT_CACHE=${DEBIAN13_APT_CACHE:-/var/cache/attestation-debian13}
# What the machine's Swift toolchain needs of the system to build and link (its own libraries
# are under its prefix): the C runtime and headers, libstdc++ and libgcc for the linker, and what
# swift-build and swift-frontend are linked with (ldd).
TOOLCHAIN_PACKAGES=(binutils git libc6-dev libgcc-14-dev libstdc++-14-dev libcurl4t64 libxml2 libsqlite3-0
  libncurses6 libedit2 libuuid1 zlib1g-dev)

say() { echo "check-debian13 : $*"; }
fail() {
  echo "check-debian13 : ÉCHEC : $*" >&2
  exit 1
}

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

mode=check
steps="prepare build check"
filter=
while [ $# -gt 0 ]; do
  case "$1" in
    --prepare | --build | --package | --check) steps=${1#--} ;;
    --fresh) mode=fresh ;;
    --remove) mode=remove ;;
    --filter)
      [ $# -ge 2 ] || fail "--filter : une expression attendue (celle de swift test --filter)."
      filter=$2
      shift
      ;;
    -h | --help) usage; exit 0 ;;
    *) fail "option inconnue $1 (acceptées : --prepare, --build, --package, --check, --fresh, --remove, --filter F, --help)" ;;
  esac
  shift
done

[ "$(id -u)" -eq 0 ] || fail "root nécessaire (debootstrap, chroot, mount)."

# Every mount point below the root, deepest first.
mounts_in_root() {
  [ -d "$ROOTFS" ] || return 0
  local real
  real=$(realpath "$ROOTFS")
  awk -v root="$real" '$2 == root || index($2, root "/") == 1 { print $2 }' /proc/self/mounts | sort -r
}

# Stops the processes whose root is the Debian 13 root (a server a failed step left running),
# then undoes the mounts; refuses to go on while one is left, so that nothing deletes through a
# bind mount of the toolchain or the package copies.
undo_mounts() {
  local real pid
  if [ -d "$ROOTFS" ]; then
    real=$(realpath "$ROOTFS")
    for pid in /proc/[0-9]*; do
      if [ "$(readlink "$pid/root" 2>/dev/null)" = "$real" ]; then kill -KILL "${pid#/proc/}" 2>/dev/null || true; fi
    done
  fi
  local target
  for target in $(mounts_in_root); do
    umount "$target" 2>/dev/null || umount -l "$target" 2>/dev/null || true
  done
  if [ -n "$(mounts_in_root)" ]; then
    echo "check-debian13 : ÉCHEC : points de montage restants sous $ROOTFS : $(mounts_in_root | tr '\n' ' ')" >&2
    return 1
  fi
}

remove_root() {
  undo_mounts || fail "démontage impossible : $ROOTFS n’est pas supprimé."
  rm -rf --one-file-system "$WORK"
}

if [ "$mode" = remove ]; then
  remove_root
  say "$WORK supprimé."
  exit 0
fi

command -v debootstrap >/dev/null 2>&1 || fail "debootstrap manquant (scripts/install-deps.sh --debian13 l’installe)."
swift_bin=$(command -v swift) || fail "pas de « swift » sur le PATH."
# /opt/swift/usr/bin/swift -> /opt/swift: bound at the same path inside the root.
TOOLCHAIN=$(dirname "$(dirname "$(dirname "$(realpath "$swift_bin")")")")
[ -x "$TOOLCHAIN/usr/bin/swift" ] || fail "chaîne Swift introuvable sous $TOOLCHAIN."
# The Swift package copies that git reads github.com addresses from (git's url.*.insteadOf).
PACKAGE_REWRITES=$(git config --get-regexp '^url\..*\.insteadof$' || true)
PACKAGES=$(echo "$PACKAGE_REWRITES" | awk '{ sub(/^url\./, "", $1); sub(/\.insteadof$/, "", $1); print $1; exit }')
[ -n "$PACKAGES" ] && [ -d "$PACKAGES" ] ||
  fail "aucune copie locale des paquets Swift (git config url.DIR.insteadOf https://github.com/) : le root n’aurait pas de réseau vers GitHub."

# The mirror this machine's apt uses for Debian itself (not its security archive).
mirror=$(grep -hE '^(URIs:|deb )' /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
  grep -o 'https\?://[^ ]*' | grep -v security | head -n 1 || true)
[ -n "$mirror" ] || fail "aucun miroir Debian dans les sources d’apt de cette machine."

trap 'undo_mounts || true' EXIT
trap 'exit 130' INT TERM

mkdir -p "$WORK" "$LOGS" "$APT_CACHE/debootstrap" "$APT_CACHE/archives/partial"
undo_mounts || fail "un run précédent a laissé des montages que rien ne défait."

wants() { [[ " $steps " == *" $1 "* ]]; }
if wants prepare && { [ "$mode" = fresh ] || [ ! -f "$ROOTFS/.ready" ]; }; then
  remove_root
  mkdir -p "$WORK" "$LOGS"
  say "debootstrap --variant=minbase $RELEASE ($mirror)"
  if ! debootstrap --variant=minbase --cache-dir="$APT_CACHE/debootstrap" "$RELEASE" "$ROOTFS" "$mirror" \
    >"$LOGS/debootstrap.log" 2>&1; then
    tail -n 30 "$LOGS/debootstrap.log" >&2
    fail "debootstrap $RELEASE (journal : $LOGS/debootstrap.log)."
  fi
  touch "$ROOTFS/.ready"
fi
[ -f "$ROOTFS/.ready" ] || fail "pas de root Debian 13 dans $ROOTFS : scripts/check-debian13.sh --prepare le fait."
grep -q '^13' "$ROOTFS/etc/debian_version" || fail "$ROOTFS n’est pas une Debian 13 ($(cat "$ROOTFS/etc/debian_version"))."

# The mounts, each undone by undo_mounts.
bind() { # bind SOURCE TARGET-INSIDE [ro]
  mkdir -p "$ROOTFS$2"
  mount --bind "$1" "$ROOTFS$2"
  if [ "${3:-}" = ro ]; then mount -o remount,bind,ro "$ROOTFS$2"; fi
}
mount -t proc proc "$ROOTFS/proc"
bind /dev /dev
mount -t devpts -o newinstance,ptmxmode=0666 devpts "$ROOTFS/dev/pts"
mount -t tmpfs -o size=2g tmpfs "$ROOTFS/dev/shm"
bind "$TOOLCHAIN" "$TOOLCHAIN" ro
bind "$PACKAGES" "$PACKAGES" ro
bind "$APT_CACHE/archives" /var/cache/apt/archives
cp /etc/resolv.conf "$ROOTFS/etc/resolv.conf"
# git inside the root reads the same package copies (bound read-only, owned by another user).
{
  echo "[safe]"
  echo "	directory = *"
  echo "$PACKAGE_REWRITES" | while read -r key value; do
    name=${key#url.}
    name=${name%.insteadof}
    printf '[url "%s"]\n\tinsteadOf = %s\n' "$name" "$value"
  done
} >"$ROOTFS/etc/gitconfig"

# A step inside the root: its name, its log file, then the command (run by bash in /src).
in_root() {
  local name=$1 log="$LOGS/$2"
  shift 2
  say "$name"
  local started=$SECONDS
  if ! chroot "$ROOTFS" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH="$TOOLCHAIN/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    DEBIAN_FRONTEND=noninteractive /bin/bash -c "cd /src && $*" >"$log" 2>&1; then
    if grep -q "✘" "$log"; then
      # Swift Testing writes each failed expectation where it happens, among 677 tests.
      echo "--- tests en échec dans $log ---" >&2
      grep "✘" "$log" | head -n 20 >&2
      tail -n 5 "$log" >&2
    elif grep -q "error:" "$log"; then
      echo "--- erreurs de $log ---" >&2
      grep "error:" "$log" | sort -u | head -n 20 >&2
    else
      echo "--- fin de $log ---" >&2
      tail -n 60 "$log" >&2
    fi
    fail "$name (journal complet : $log)."
  fi
  say "  fait en $((SECONDS - started)) s"
}

if wants prepare; then
  # install-deps.sh alone, not the checkout: the build step copies that.
  mkdir -p "$ROOTFS/src/scripts"
  cp "$ROOT/scripts/install-deps.sh" "$ROOTFS/src/scripts/"
  in_root "paquets de la chaîne Swift (${TOOLCHAIN_PACKAGES[*]})" packages.log \
    "apt-get update -qq && apt-get install -y -qq --no-install-recommends ${TOOLCHAIN_PACKAGES[*]}"
  in_root "scripts/install-deps.sh --test --deb (les paquets du README, ceux du paquet Debian)" install-deps.log \
    "scripts/install-deps.sh --test --deb"
  in_root "versions" versions.log \
    "dpkg-query -W -f='\${Package} \${Version}\n' libmicrohttpd-dev libhpdf-dev libharfbuzz-dev libcairo2-dev libqrencode-dev libpng-dev libgnutls28-dev nettle-dev && swift --version"
  sed 's/^/  /' "$LOGS/versions.log"
  touch "$ROOTFS/.prepared"
fi
[ -f "$ROOTFS/.prepared" ] || fail "les paquets du root Debian 13 ne sont pas installés : scripts/check-debian13.sh --prepare le fait."

# The build of the Swift suite: debug, as make check's. Release with -enable-testing (which
# @testable needs) compiled each module above a changed file whole, and the test modules with
# them: 800 s of a warm CI run for a private function's body in Rendering (issue 39). The
# release programs are checked below all the same: the served PDF comes from the package's build.
# Not with --static-swift-stdlib: the toolchain's static resources have no Testing module.
BUILD=""
# The package's: the two programs with the Swift runtime linked in, as make deb builds them.
PACKAGE_BUILD="-c release --static-swift-stdlib --scratch-path .build-static"
if wants build || wants package; then
  # The checkout as it is now (tracked files and new ones git does not ignore), over the last run's
  # copy, whose build folder stays.
  mkdir -p "$ROOTFS/src"
  find "$ROOTFS/src" -mindepth 1 -maxdepth 1 ! -name .build ! -name .build-static -exec rm -rf --one-file-system {} +
  (cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
    tar --null --ignore-failed-read -T - -cf - 2>/dev/null) | tar -xf - -C "$ROOTFS/src"
  # The tests and the two programs they run, not attestation-fuzz nor attestation-bench, which
  # the suite does not use (Debian 12's builds have them): 2 fewer modules to build.
  if wants build; then
    in_root "swift build (debug : les tests, attestation-server, attestation-admin)" build.log \
      "swift build $BUILD --product attestation-linksPackageTests && swift build $BUILD --product attestation-server && swift build $BUILD --product attestation-admin"
  fi
fi
if [ -n "$filter" ]; then
  in_root "swift test --filter $filter" test.log "swift test $BUILD --skip-build --disable-xctest --filter $(printf %q "$filter")"
  grep -E "Test run" "$LOGS/test.log" | tail -n 1 | sed 's/^/  /' || true
  exit 0
fi
if wants build || wants package; then
  # The version from this checkout's git, which the root's copy does not have.
  version=$("$ROOT/scripts/build-deb.sh" --version-for 13)
  in_root "swift build $PACKAGE_BUILD (les deux programmes du paquet)" package-build.log \
    "swift build $PACKAGE_BUILD --product attestation-server && swift build $PACKAGE_BUILD --product attestation-admin"
  in_root "scripts/build-deb.sh (le paquet Debian 13, $version)" package.log \
    "scripts/build-deb.sh --bin /src/.build-static/release --out /src/out/deb/debian13 --version $version"
  sed 's/^/  /' "$LOGS/package.log" | grep -E "Depends|lintian|aucune|man |paquet :"
  mkdir -p "$ROOT/out/deb/debian13"
  rm -f "$ROOT"/out/deb/debian13/attestation-links_*.deb
  cp "$ROOTFS/src/out/deb/debian13/attestation-links_${version}_amd64.deb" "$ROOT/out/deb/debian13/"
  say "paquet : out/deb/debian13/attestation-links_${version}_amd64.deb"
fi
wants check || exit 0
in_root "swift test (la suite Swift, build debug)" test.log "swift test $BUILD --skip-build --disable-xctest"
grep -E "Test run" "$LOGS/test.log" | tail -n 1 | sed 's/^/  /' || true
# The names the Dockerfile and docs/deployment.md give for the runtime are Debian 12's; on 13
# apt must find a package for each (the t64 libraries provide the old names).
runtime_packages=$(sed -n 's/^ARG RUNTIME_PACKAGES="\(.*\)"$/\1/p' "$ROOT/Dockerfile")
[ -n "$runtime_packages" ] || fail "Dockerfile : ARG RUNTIME_PACKAGES=\"…\" introuvable."
in_root "paquets d’exécution du Dockerfile sur Debian 13 (apt-get install -s)" runtime-packages.log \
  "apt-get install -s -qq --no-install-recommends $runtime_packages"

# The administrator's first minutes, in an empty folder, against the package's release programs.
[ -x "$ROOTFS/src/.build-static/release/attestation-server" ] ||
  fail "pas de programmes du paquet dans $ROOTFS/src/.build-static/release : scripts/check-debian13.sh --build les construit."
cat >"$ROOTFS/tmp/serve.sh" <<'SERVE'
set -euo pipefail
bin=/src/.build-static/release
site=$(mktemp -d /tmp/site.XXXXXX)
cd "$site"
"$bin/attestation-admin" init --base-url http://127.0.0.1:8080
"$bin/attestation-admin" mint --first-name Camille --last-name Dupont --birth-date 01/01/1970 --birth-place Lyon \
  --address "999 avenue de France" --zip 75001 --city Paris --reason travail --format url >link.txt
token=$(sed -n 's/.*[?&]t=\([^&]*\).*/\1/p' link.txt)
[ -n "$token" ] || { echo "mint : pas de jeton dans $(cat link.txt)"; exit 1; }
"$bin/attestation-server" --config config.json --host 127.0.0.1 --port 0 --log-format json >server.out 2>server.err &
pid=$!
port=
for _ in $(seq 150); do
  port=$(grep '"event":"listening"' server.out | grep -o '"port":[0-9]*' | cut -d: -f2 || true)
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "le serveur s’est arrêté :"; cat server.err; exit 1; }
  sleep 0.2
done
[ -n "$port" ] || { echo "le serveur n’a pas écrit sa ligne « listening » en 30 s"; exit 1; }
answer=$(curl -sS -o attestation.pdf -w '%{http_code} %{content_type}' "http://127.0.0.1:$port/attestation.pdf?t=$token")
echo "GET /attestation.pdf : $answer"
[ "$answer" = "200 application/pdf" ] || { cat attestation.pdf; exit 1; }
pdftotext -layout attestation.pdf text.txt
# No place of birth: the version in force since 9 June 2021 (the link follows the calendar) asks none.
for word in Camille Dupont "999 avenue de France" "$(TZ=Europe/Paris date +%d/%m/%Y)"; do
  grep -qF "$word" text.txt || { echo "pdftotext : « $word » absent"; cat text.txt; exit 1; }
done
pdftoppm -r 150 -png -f 1 -l 1 attestation.pdf page
payload=$(zbarimg --raw -q page-1.png)
for field in "Nom: Dupont" "Prenom: Camille" "Motifs: travail"; do
  grep -qF "$field" <<<"$payload" || { echo "zbarimg : « $field » absent du QR code : $payload"; exit 1; }
done
echo "pdftotext : nom, adresse, date du jour ; zbarimg : $(tr '\n' ' ' <<<"$payload" | cut -c1-80)…"
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -eq 0 ] || { echo "SIGTERM : code de sortie $status"; cat server.err; exit 1; }
echo "SIGTERM : code 0"
cd /
rm -rf "$site"
SERVE
in_root "init, mint, serveur, PDF (curl, pdftotext, zbarimg)" serve.log "bash /tmp/serve.sh"
sed 's/^/  /' "$LOGS/serve.log" | grep -E "GET|pdftotext|SIGTERM"
say "Debian 13 : suite Swift, binaires de production et service vérifiés."
