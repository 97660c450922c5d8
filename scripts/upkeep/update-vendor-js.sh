#!/usr/bin/env bash
# Copies the browser libraries the site serves from their Debian packages into Public/vendor/,
# byte for byte: qrcode-generator (node-qrcode-generator), the QR encoder of the attestations the
# personal page makes offline. PublicSiteTests compares the copy with the package's file, so a
# Debian update fails the tests until this is run (then review the diff, and the version named in
# Sources/Licenses/Components.swift).
set -euo pipefail
cd "$(dirname "$0")/../.."
source=/usr/share/javascript/qrcode-generator/qrcode.js
[ -f "$source" ] || { echo "update-vendor-js: $source is missing: scripts/install-deps.sh installs node-qrcode-generator" >&2; exit 69; }
mkdir -p Public/vendor
cp "$source" Public/vendor/qrcode-generator.js
echo "Public/vendor/qrcode-generator.js: $(dpkg-query -W -f='${Version}' node-qrcode-generator)"
