# Sourced by scripts/check-deb.sh, deb-piuparts.sh and deb-autopkgtest.sh: their one command
# line, `--release 12|13 DEB`, their messages (French, named after the script), and what each
# needs first: root, the package file, the fresh root of scripts/deb-root.sh. Sets ROOT,
# release, codename, release_tag, deb (an absolute path) and base (that fresh root).
ROOT=$(cd "$(dirname "$0")/.." && pwd)
script_name=$(basename "$0" .sh)
release_tag=
say() { echo "$script_name$release_tag : $*"; }
fail() {
  echo "$script_name$release_tag : ÉCHEC : $*" >&2
  exit 1
}

release=
deb=
while [ $# -gt 0 ]; do
  case "$1" in
    --release)
      [ $# -ge 2 ] || fail "--release : 12 ou 13 attendu."
      release=$2
      shift
      ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) fail "option inconnue $1 (acceptées : --release 12|13, --help)" ;;
    *) deb=$1 ;;
  esac
  shift
done
case "$release" in
  12) codename=bookworm ;;
  13) codename=trixie ;;
  *) fail "--release 12 ou --release 13 attendu." ;;
esac
release_tag=" (Debian $release)"
[ "$(id -u)" -eq 0 ] || fail "root nécessaire (chroot, mount)."
[ -n "$deb" ] && [ -f "$deb" ] || fail "paquet introuvable : ${deb:-(aucun)}."
deb=$(realpath "$deb")
base=$ROOT/.build-deb/$release/root
[ -f "$base/.fresh" ] || fail "pas de root neuf dans $base : scripts/deb-root.sh --release $release --root le fait."
