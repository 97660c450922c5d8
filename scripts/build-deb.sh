#!/usr/bin/env bash
# make deb: attestation-links_VERSION_ARCH.deb for the Debian release this runs on, made by
# Debian's own tools (dpkg-buildpackage and debhelper, debian/) from binaries already built with
# the Swift runtime linked in (swift build -c release --static-swift-stdlib): nothing here builds
# Swift. In a folder of its own (out/deb/build-RELEASE/attestation-links-VERSION/), it stages
# the two binaries (bin/), docs/deploy/'s proxy examples (deploy/), config.example.json and
# debian/ with a changelog written for this version; dh_installsystemd installs the units of
# debian/ (attestation-links.attestation-server.service and its @ template), debian/rules makes
# the manual pages from the programs' own --help (help2man); dpkg-shlibdeps computes the
# libraries' dependencies.
# Then it checks what it made: lintian, failing on any error or warning that
# debian/attestation-links.lintian-overrides does not explain; both manual pages rendered
# (man -l, no warning from groff) and indexed (lexgrog: their NAME line); the Swift runtime
# inside the binaries (ldd names no libswift).
#
#   scripts/build-deb.sh [--bin DIR] [--out DIR] [--version VERSION]
#   scripts/build-deb.sh --version-for N    prints the default version for Debian N and exits
#                                           (scripts/check-debian13.sh: its root has no git)
#
#   --bin DIR      the folder of attestation-server and attestation-admin (default
#                  .build-image/release, where make deb builds them with the Dockerfile's flags)
#   --out DIR      where the .deb goes (default: the repository's root, for
#                  `apt install ./attestation-links_*.deb`); an older attestation-links_*.deb
#                  there is deleted first, so that the pattern names one file
#   --version V    default 0.YYYYMMDD.HHMMSS+gCOMMIT+debN: the last commit's date and time (UTC)
#                  and short id, and the Debian release (12, 13): a later commit is a higher
#                  version, and a Debian 13 build is higher than the Debian 12 one of the same
#                  commit, so an upgrade from 12 to 13 takes it (docs/deployment.md)
#
# Needs dpkg-dev, debhelper, help2man, lintian and man-db (scripts/install-deps.sh --deb). Not root.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "build-deb : $*"; }
fail() {
  echo "build-deb : ÉCHEC : $*" >&2
  exit 1
}

bin=$ROOT/.build-image/release
out=$ROOT
version=
version_for=
while [ $# -gt 0 ]; do
  case "$1" in
    --bin | --out | --version | --version-for)
      [ $# -ge 2 ] || fail "$1 : une valeur attendue."
      case "$1" in --bin) bin=$2 ;; --out) out=$2 ;; --version) version=$2 ;; --version-for) version_for=$2 ;; esac
      shift
      ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) fail "option inconnue $1 (acceptées : --bin DIR, --out DIR, --version V, --version-for N, --help)" ;;
  esac
  shift
done

# 0.YYYYMMDD.HHMMSS+gCOMMIT+debN, from the last commit.
default_version() {
  git -C "$ROOT" rev-parse HEAD >/dev/null 2>&1 || fail "pas de dépôt git pour dater la version : donnez --version."
  echo "0.$(TZ=UTC git -C "$ROOT" log -1 --format=%cd --date=format-local:%Y%m%d.%H%M%S)+g$(git -C "$ROOT" rev-parse --short=7 HEAD)+deb$1"
}
if [ -n "$version_for" ]; then
  default_version "$version_for"
  exit 0
fi

for tool in dpkg-buildpackage dh help2man lintian man lexgrog; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool manquant (scripts/install-deps.sh --deb l’installe)."
done
for program in attestation-server attestation-admin; do
  [ -x "$bin/$program" ] || fail "$bin/$program absent : make deb le construit (swift build -c release --static-swift-stdlib)."
  if grep -qa -e __asan_init -e __tsan_init "$bin/$program"; then
    fail "$bin/$program est construit avec un sanitizer : un paquet ne contient qu’une build de production."
  fi
  if ldd "$bin/$program" | grep -q libswift; then
    fail "$bin/$program charge le runtime Swift de la chaîne ($(ldd "$bin/$program" | grep -o 'libswift[^ ]*' | head -n 1)) : construisez avec --static-swift-stdlib."
  fi
done

# shellcheck disable=SC1091
release=$(. /etc/os-release && echo "${VERSION_ID:-}")
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$release" ] && [ -n "$codename" ] || fail "/etc/os-release ne dit pas la version de Debian."
[ -n "$version" ] || version=$(default_version "$release")
[[ $version =~ ^[0-9][A-Za-z0-9.+~]*$ ]] || fail "version « $version » invalide pour Debian (chiffres, lettres, . + ~)."
commit=${version##*+g}
commit=${commit%%+*}
arch=$(dpkg --print-architecture)

work=$ROOT/out/deb/build-$release
stage=$work/attestation-links-$version
rm -rf "$work"
mkdir -p "$stage/bin" "$stage/deploy"
cp -r "$ROOT/debian" "$stage/"
cp "$bin/attestation-server" "$bin/attestation-admin" "$stage/bin/"
cp "$ROOT"/docs/deploy/nginx-site.conf "$ROOT"/docs/deploy/Caddyfile "$ROOT"/docs/deploy/native-tls.conf "$stage/deploy/"
cp "$ROOT/config.example.json" "$stage/"
maintainer=$(sed -n 's/^Maintainer: //p' "$ROOT/debian/control")
# The changelog dpkg reads the version from; dated by the commit, so that two builds of one
# commit are the same package.
when=$(git -C "$ROOT" log -1 --format=%cD 2>/dev/null || date -R)
cat >"$stage/debian/changelog" <<CHANGELOG
attestation-links ($version) $codename; urgency=medium

  * Built from commit $commit for Debian $release ($codename) by scripts/build-deb.sh.

 -- $maintainer  $when
CHANGELOG

say "dpkg-buildpackage -b ($version, Debian $release $codename, $arch)"
started=$SECONDS
# -d: the tools were checked above; dpkg-checkbuilddeps would also want build-essential (a C
# compiler), which packaging binaries already built does not use (the Debian 13 root has none).
if ! (cd "$stage" && dpkg-buildpackage -b -us -uc -d) >"$work/dpkg-buildpackage.log" 2>&1; then
  tail -n 40 "$work/dpkg-buildpackage.log" >&2
  fail "dpkg-buildpackage (journal : $work/dpkg-buildpackage.log)."
fi
deb=$work/attestation-links_${version}_$arch.deb
[ -f "$deb" ] || fail "dpkg-buildpackage n’a pas écrit $deb."
say "  fait en $((SECONDS - started)) s : $(du -k "$deb" | cut -f1) Kio"
dpkg-deb -f "$deb" Depends | sed 's/^/  Depends: /'

# lintian: no error, and no warning left unexplained (each override says why, in its comment).
say "lintian"
if ! lintian --fail-on error,warning --display-info --show-overrides "$deb" >"$work/lintian.log" 2>&1; then
  cat "$work/lintian.log" >&2
  fail "lintian signale une erreur ou un avertissement sans justification (debian/attestation-links.lintian-overrides)."
fi
info=$(grep -c '^I:' "$work/lintian.log" || true)
overridden=$(grep -c '^O:' "$work/lintian.log" || true)
say "  aucune erreur, aucun avertissement non justifié ($overridden justifiés ; $info remarques d’information : $(
  sed -n 's/^I: [^ ]* \([^ ]*\).*/\1/p' "$work/lintian.log" | sort | uniq -c | sort -rn | awk '{ printf "%s%s %s", sep, $2, $1; sep = ", " }'))"

# The manual pages, as man shows them and as mandb indexes them.
unpacked=$work/unpacked
dpkg-deb -x "$deb" "$unpacked"
for program in attestation-admin attestation-server; do
  page=$unpacked/usr/share/man/man1/$program.1.gz
  [ -f "$page" ] || fail "page de manuel $program.1.gz absente du paquet."
  if ! MANWIDTH=80 LANG=C.UTF-8 man -l "$page" >"$work/$program.man.txt" 2>"$work/$program.man.err" ||
    [ -s "$work/$program.man.err" ]; then
    cat "$work/$program.man.err" >&2
    fail "man -l $program.1.gz : rendu en erreur ou avec avertissements."
  fi
  grep -q -- "--config" "$work/$program.man.txt" || fail "man $program : l’option --config n’y est pas."
  name=$(lexgrog "$page" 2>&1) || fail "lexgrog $program.1.gz : $name"
  [[ $name == *"$program - "* ]] || fail "lexgrog $program.1.gz : pas de ligne NAME « $program - … » ($name)."
  say "  man $program : $(wc -l <"$work/$program.man.txt") lignes ; lexgrog : ${name#*: }"
done

mkdir -p "$out"
find "$out" -maxdepth 1 -name "attestation-links_*_$arch.deb" ! -name "$(basename "$deb")" -print -delete |
  sed 's/^/build-deb : ancien paquet supprimé : /'
cp "$deb" "$out/"
say "paquet : $(realpath "$out/$(basename "$deb")")"
