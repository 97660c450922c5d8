#!/usr/bin/env bash
# make test's part of the fuzzing: the committed corpus, crash seeds included, replayed through
# attestation-fuzz as the test build made it (the address sanitizer, no libFuzzer), every
# property of each target checked on every file. The fuzzing itself, libFuzzer mutating that
# corpus for minutes, is make stress's (scripts/stress/fuzz.sh).
#
#   scripts/fuzz-replay.sh [TARGET…]      targets: link-token, query, form-json, font-file, png-picture (default: all)
#
# First, the seeds attestation-fuzz writes now (tokens signed with its fixture's key, the
# built-in forms as they load, the routes it knows) must be the committed ones,
# Tests/Fuzz/Corpus: a corpus that no longer matches misses what the code learned since (a new
# route, a new form). Then each target replays its folder, each file under a time limit; a
# trap, a broken property, a sanitizer report or a leak fails the run and names the target.
#
#   ATTESTATION_BIN   the folder of attestation-fuzz (default: the latest of .build/debug and
#                     .build/release, as the harness finds binaries)
#   FUZZ_TIMEOUT=120  seconds a target's whole replay may take
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/harness/harness.sh"
corpus_root=$root/Tests/Fuzz/Corpus
all_targets=(link-token query form-json font-file png-picture)
timeout=${FUZZ_TIMEOUT:-120}

fail() { echo "fuzz-replay : $*" >&2; exit 1; }
targets=()
for target in "$@"; do
  [[ " ${all_targets[*]} " == *" $target "* ]] || { echo "usage : scripts/fuzz-replay.sh [${all_targets[*]}]" >&2; exit 64; }
  targets+=("$target")
done
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

bin_dir=$(harness bin-dir)
binary=$bin_dir/attestation-fuzz
[ -x "$binary" ] || fail "$binary introuvable ; construisez-le (swift build --product attestation-fuzz, ou make test)."

export LSAN_OPTIONS="suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export SWIFT_BACKTRACE=enable=no
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz-replay.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$binary" write-seeds "$work/seeds" >/dev/null || fail "write-seeds a échoué."
if ! stale=$(diff -rq "$work/seeds" "$corpus_root" 2>&1); then
  echo "$stale" | sed "s|$work/seeds|(écrites)|; s|$corpus_root|Tests/Fuzz/Corpus|" | head -10 >&2
  fail "les graines de Tests/Fuzz/Corpus ne sont plus celles que le code écrit ; régénérez-les : rm -rf Tests/Fuzz/Corpus && ${binary#"$root"/} write-seeds Tests/Fuzz/Corpus, puis relisez le diff."
fi
echo "fuzz-replay : graines à jour ($(find "$corpus_root" -type f | wc -l) fichiers)."

failed=0
for target in "${targets[@]}"; do
  log=$work/$target.log
  status=0
  timeout "$timeout" "$binary" "$target" "$corpus_root/$target" >"$log" 2>&1 || status=$?
  if [ $status -ne 0 ] || grep -qE '^==[0-9]+==ERROR|^SUMMARY: [A-Za-z]*Sanitizer|propriété violée|Fatal error' "$log"; then
    failed=1
    [ $status -eq 124 ] && echo "fuzz-replay : ÉCHEC de $target : plus de $timeout s" >&2
    echo "fuzz-replay : ÉCHEC de $target (code $status) ; fin du journal :" >&2
    tail -n 40 "$log" | sed 's/^/    /' >&2
  else
    tail -n 1 "$log"
  fi
done
[ $failed -eq 0 ] || fail "au moins une cible a échoué."
