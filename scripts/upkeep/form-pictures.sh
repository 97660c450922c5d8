#!/usr/bin/env bash
# scripts/upkeep/form-pictures.sh [BLANKS]: the side-by-side pictures of docs/forms/, one per official
# form of 2020–2021 that this server draws: each page of the Ministry's blank (left), the same
# page as `attestation-admin forms preview` draws the form (middle: Camille Exemple, every
# offered reason ticked), and the two laid over each other (right: black where both have ink,
# cyan where only the blank has, red where only ours has); one row per page of the blank.
#
# The versions of April–June 2021 had no blank: their left picture is the reference drawn from
# the generator's data (Tests/FormSchemaTests/Reference/drawn/FORM/reference.pdf, without its QR
# code), the middle one this server's page for the same person and instant (example.json there;
# `attestation-admin render` under Debian's faketime).
#
# BLANKS holds a folder per form with the Ministry's blank.pdf: the shared reference files
# (default ../shared/reference/forms beside the repository; the repository keeps only their
# text, in Tests/FormSchemaTests/Reference). attestation-admin is found by the test harness
# (scripts/harness): ATTESTATION_BIN, else the latest of .build/release and .build/debug
# (`swift build --product attestation-admin` first; make form-pictures does). Needs pdftoppm
# (poppler-utils) and ImageMagick (imagemagick).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/scripts/harness/harness.sh"
harness_use_bin
blanks=${1:-$root/../shared/reference/forms}
admin=$admin_bin
out=$root/docs/forms
dpi=90

for tool in pdftoppm pdfinfo convert montage faketime; do
  command -v "$tool" >/dev/null 2>&1 || {
    echo "form-pictures: $tool is missing (apt-get install poppler-utils imagemagick)" >&2; exit 69; }
done
[ -x "$admin" ] || { echo "form-pictures: no $admin; run swift build --product attestation-admin first" >&2; exit 69; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# form id, then the JSON file that holds it (the two contexts of 17 March share one file).
forms=(
  "couvre-feu-2020-10-17 couvre-feu-2020-10-17"
  "deplacement-2020-10-30 deplacement-2020-10-30"
  "couvre-feu-2020-12-15 couvre-feu-2020-12-15"
  "couvre-feu-2021-01-04 couvre-feu-2021-01-04"
  "couvre-feu-2021-01-25 couvre-feu-2021-01-25"
  "deplacement-2021-03-01 deplacement-2021-03-01"
  "deplacement-2021-03-17-couvre-feu deplacement-2021-03-17"
  "deplacement-2021-03-17-week-end deplacement-2021-03-17"
  "deplacement-2021-03-23-couvre-feu deplacement-2021-03-23-couvre-feu"
  "deplacement-2021-03-23-mesures-renforcees deplacement-2021-03-23-mesures-renforcees"
  "deplacement-2021-04-07-couvre-feu drawn"
  "deplacement-2021-04-07-journee drawn"
  "deplacement-2021-05-04 drawn"
  "deplacement-2021-05-23 drawn"
  "deplacement-2021-06-10 drawn"
)
drawn=$root/Tests/FormSchemaTests/Reference/drawn

made=0
for entry in "${forms[@]}"; do
  read -r id file <<<"$entry"
  if [ "$file" = drawn ]; then
    blank=$drawn/$id/reference.pdf
    # The example's person, exit time and creation instant (UTC, for faketime).
    mapfile -t render < <(python3 - "$drawn/example.json" "$id" <<'PY'
import datetime, json, sys, zoneinfo
example = json.load(open(sys.argv[1])); entry = example["attestations"][sys.argv[2]]; person = example["person"]
paris = zoneinfo.ZoneInfo("Europe/Paris")
created = datetime.datetime.fromisoformat(entry["created"]).replace(tzinfo=paris).astimezone(datetime.timezone.utc)
print(created.strftime("%Y-%m-%d %H:%M:%S"))
for option, key in [("--first-name", "firstname"), ("--last-name", "lastname"), ("--birth-date", "birthday"),
                    ("--address", "address"), ("--zip", "zipcode"), ("--city", "city")]:
    print(option); print(person[key])
print("--at"); print(entry["exit"].split("T")[1])
for reason in entry["reasons"]:
    print("--reason"); print(reason)
PY
)
    if ! TZ=UTC faketime "${render[0]}" "$admin" render "${render[@]:1}" --form "$id" -o "$work/$id.pdf" >/dev/null 2>"$work/$id.err"; then
      echo "form-pictures: $id skipped: $(cat "$work/$id.err")" >&2
      continue
    fi
  else
    blank=$blanks/$id/blank.pdf
  fi
  [ -r "$blank" ] || { echo "form-pictures: no $blank (give the reference forms' folder)" >&2; exit 66; }
  if [ "$file" = drawn ]; then
    :
  elif ! "$admin" forms preview "$root/Sources/FormSchema/Forms/$file.json" --form "$id" -o "$work/$id.pdf" >/dev/null 2>"$work/$id.err"; then
    echo "form-pictures: $id skipped: $(cat "$work/$id.err")" >&2
    continue
  fi
  pages=$(pdfinfo "$blank" | sed -n 's/^Pages: *//p')
  rows=()
  for page in $(seq 1 "$pages"); do
    p=$id-$page
    pdftoppm -r "$dpi" -gray -singlefile -f "$page" -l "$page" -png "$blank" "$work/$p-blank"
    pdftoppm -r "$dpi" -gray -singlefile -f "$page" -l "$page" -png "$work/$id.pdf" "$work/$p-ours"
    # Both on the same canvas (the blank's page may be a fraction of a point larger).
    size=$(convert "$work/$p-blank.png" "$work/$p-ours.png" -background white -layers merge -format '%wx%h' info:)
    for side in blank ours; do
      convert "$work/$p-$side.png" -background white -gravity northwest -extent "$size" "$work/$p-$side-fit.png"
    done
    # Red from the blank, green and blue from ours: ink in both is black, in the blank only
    # cyan, in ours only red.
    convert "$work/$p-blank-fit.png" "$work/$p-ours-fit.png" "$work/$p-ours-fit.png" -combine "$work/$p-overlay.png"
    caption="Ministère (vierge)"
    [ "$file" != drawn ] || caption="référence (données du générateur, sans QR code)"
    [ "$pages" -eq 1 ] || caption="$caption, page $page"
    montage -label "$caption" "$work/$p-blank-fit.png" -label "attestation-links" "$work/$p-ours-fit.png" \
      -label "superposés : noir commun, cyan Ministère seul, rouge nous seuls" "$work/$p-overlay.png" \
      -tile 3x1 -geometry +8+8 -pointsize 14 -background white "$work/$p-montage.png"
    rows+=("$work/$p-montage.png")
  done
  convert "${rows[@]}" -append -colors 64 -define png:compression-level=9 "$out/$id.png"
  echo "$out/$id.png"
  made=$((made + 1))
done
[ "$made" -gt 0 ] || { echo "form-pictures: no form drawn" >&2; exit 1; }
