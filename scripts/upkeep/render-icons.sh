#!/usr/bin/env bash
# Renders Public/icone.svg into the PNG icons of the manifest and iOS with headless Chromium
# (scripts/install-deps.sh --browser installs it). Run after changing the SVG; the PNGs are committed.
set -euo pipefail
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

svg=Public/icone.svg
# iOS rounds the corners itself, and maskable icons are cut by the launcher: both get a full
# square background; the maskable drawing is shrunk into the central safe zone.
sed -e 's/ rx="104"//' "$svg" > "$work/carre.svg"
sed -e 's|<rect width="512" height="512" rx="104" fill="#000091"/>|<rect width="512" height="512" fill="#000091"/><g transform="translate(64 64) scale(0.75)">|' \
    -e 's|</svg>|</g></svg>|' "$svg" > "$work/masquable.svg"

render() { # svg size output
  printf '<!doctype html><style>html,body{margin:0;background:transparent}img{display:block;width:%spx;height:%spx}</style><img src="file://%s">' \
    "$2" "$2" "$(realpath "$1")" > "$work/page.html"
  chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --default-background-color=00000000 \
    --window-size="$2,$2" --screenshot="$(realpath -m "$3")" "file://$work/page.html" 2>/dev/null
}
mkdir -p Public/icones
render "$svg" 192 Public/icones/icone-192.png
render "$svg" 512 Public/icones/icone-512.png
render "$work/masquable.svg" 512 Public/icones/icone-masquable-512.png
render "$work/carre.svg" 180 Public/icones/apple-touch-icon.png
echo "render-icons: Public/icones/ updated"
