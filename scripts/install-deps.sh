#!/usr/bin/env bash
# Installs from Debian's packages what building (and, with --test, testing) needs and is
# missing (--test includes LibreOffice Calc, whose headless soffice saves the spreadsheets the
# CSV tests read, node-qrcode-generator, whose qrcode.js the site's vendored copy and its licence
# are checked against, gnutls-cli and openssl for the TLS tests, and Prometheus's promtool, which
# checks /metrics: the package promtool on Debian 13; Debian 12 has it only inside the package
# prometheus, whose installing would also start a Prometheus server, so there the program alone
# is taken out of that package into /usr/local/bin, and valgrind with binutils' strip, with which
# make test's render-cost stage counts each form version's instructions per PDF); --bench adds
# the load generator and valgrind (Benchmarks/callgrind-per-render, Benchmarks/callgrind-server); --browser adds headless Chromium, its WebDriver, Firefox ESR (driven through Marionette: Debian
# packages no geckodriver) and
# Debian's Python with selenium for the browser tests and make screenshots (scripts/browser-env.py
# then adds the one PyPI package they use), qpdf, and faketime, which starts the server at a date of
# 2020–2021 for the tests of a change of form; --stress adds what the hardening suite and the
# deployment checks run (nginx, Caddy, openssl, systemd-analyze, libseccomp, debootstrap, wrk,
# and python3-venv, without which Debian's python3 cannot make check-kubernetes.py's venv);
# --debian13 adds what scripts/check-debian13.sh needs to make its Debian 13 root (debootstrap);
# --deb adds what make deb builds and checks the package with (scripts/build-deb.sh: dpkg-dev,
# debhelper, help2man, lintian, man-db) and what proves it in fresh roots of each release
# (debootstrap for scripts/deb-root.sh; Debian's own piuparts and autopkgtest,
# scripts/deb-piuparts.sh and scripts/deb-autopkgtest.sh, the latter installing the tests'
# own dependencies inside its root);
# --forms adds what the form tools read and draw with (make draft-reference-form: mutool; make
# generate-font-metrics: the Adobe Glyph List of fontTools; make form-pictures: pdftoppm and
# ImageMagick); --webkit adds what make check-webkit drives WebKit with: WebKitGTK's WebDriver and
# MiniBrowser, the virtual X server it runs in, Debian's Python with selenium, and zbarimg.
# The package names are the same on Debian 12 and 13 (apt picks the t64 libraries of 13 for the
# names of 12).
# Uses sudo only when not root. The Swift toolchain itself is expected on PATH.
set -euo pipefail

build_packages=(libmicrohttpd-dev nettle-dev libhpdf-dev libqrencode-dev libpng-dev libharfbuzz-dev libcairo2-dev pkg-config fonts-dejavu-core fonts-urw-base35 tzdata)
test_packages=(poppler-utils qpdf zbar-tools imagemagick curl libreoffice-calc-nogui node-qrcode-generator gnutls-bin openssl valgrind binutils)
bench_packages=(wrk procps curl valgrind binutils python3)
stress_packages=(wrk procps curl python3 python3-yaml python3-venv nginx caddy openssl poppler-utils systemd libseccomp2 debootstrap)
debian13_packages=(debootstrap)
deb_packages=(dpkg-dev debhelper help2man lintian man-db debootstrap piuparts autopkgtest)
forms_packages=(python3 mupdf-tools python3-fonttools fonts-urw-base35 poppler-utils imagemagick)
browser_packages=(chromium chromium-driver firefox-esr python3 python3-selenium python3-venv poppler-utils zbar-tools curl qpdf faketime)
webkit_packages=(webkit2gtk-driver xvfb xauth python3 python3-selenium zbar-tools)

# Debian 12's promtool comes out of the prometheus package (see above); later releases package it.
debian_release=$(. /etc/os-release 2>/dev/null && echo "${VERSION_ID:-}")
[ "$debian_release" = "12" ] || test_packages+=(promtool)
promtool_from_prometheus=0

packages=("${build_packages[@]}")
for arg in "$@"; do
  case "$arg" in
    --test)
      packages+=("${test_packages[@]}")
      [ "$debian_release" = "12" ] && ! command -v promtool >/dev/null 2>&1 && promtool_from_prometheus=1
      ;;
    --bench) packages+=("${bench_packages[@]}") ;;
    --browser) packages+=("${browser_packages[@]}") ;;
    --stress) packages+=("${stress_packages[@]}") ;;
    --debian13) packages+=("${debian13_packages[@]}") ;;
    --deb) packages+=("${deb_packages[@]}") ;;
    --forms) packages+=("${forms_packages[@]}") ;;
    --webkit) packages+=("${webkit_packages[@]}") ;;
    -h|--help) echo "usage: scripts/install-deps.sh [--test] [--bench] [--browser] [--stress] [--debian13] [--deb] [--forms] [--webkit]"; exit 0 ;;
    *) echo "install-deps: unknown option $arg (accepted: --test, --bench, --browser, --stress, --debian13, --deb, --forms, --webkit)" >&2; exit 64 ;;
  esac
done

if ! command -v swift >/dev/null 2>&1; then
  echo "install-deps: no 'swift' on PATH; install the Swift 6 toolchain (swift.org) first." >&2
  exit 69
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && [ $promtool_from_prometheus -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 77; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ $promtool_from_prometheus -eq 1 ]; then
  echo "install-deps: installing promtool (taken out of Debian 12's package prometheus) into /usr/local/bin"
  unpacked=$(mktemp -d)
  trap 'rm -rf "$unpacked"' EXIT
  (cd "$unpacked" && $sudo apt-get download -qq prometheus 2>/dev/null)
  dpkg-deb --fsys-tarfile "$unpacked"/prometheus_*.deb | tar -x -C "$unpacked" ./usr/bin/promtool
  $sudo install -m 0755 "$unpacked/usr/bin/promtool" /usr/local/bin/promtool
fi
