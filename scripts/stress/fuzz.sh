#!/usr/bin/env bash
# The fuzzing part of the hardening suite: `make stress` runs it for long, `make test` briefly.
#
#   scripts/stress/fuzz.sh [--seconds N] [--build-only] [TARGET…]     targets: link-token, query, form-json, font-file, png-picture
#
# Builds attestation-fuzz (Sources/attestation-fuzz) in .build-fuzz, optimized, with libFuzzer's
# coverage instrumentation, the address sanitizer, -DFUZZING and libFuzzer's runtime without its
# main (the program keeps its own and calls LLVMFuzzerRunDriver). Then runs each target for N
# seconds (default 60) on a copy of its seed corpus, Tests/Fuzz/Corpus/TARGET, in a temporary
# directory removed on exit, with its dictionary Tests/Fuzz/TARGET.dict: new inputs never go
# into the repository. Prints executions, executions per second, coverage and corpus size per
# target. Exits 1 on any crash, broken property, leak, timeout, out-of-memory or sanitizer
# report, naming the target and the input that caused it, kept in out/fuzz/TARGET/ (replay it
# with .build-fuzz/release/attestation-fuzz TARGET FILE, or through a plain build).
#
#   FUZZ_TIMEOUT=10      seconds one input may take before it counts as a hang
#   FUZZ_RSS_LIMIT=2048  megabytes of memory before it counts as out-of-memory
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
scratch=$root/.build-fuzz
binary=$scratch/release/attestation-fuzz
corpus_root=$root/Tests/Fuzz/Corpus
artifacts_root=$root/out/fuzz
all_targets=(link-token query form-json font-file png-picture)
seconds=60
build_only=0
targets=()
per_input_timeout=${FUZZ_TIMEOUT:-10}
rss_limit=${FUZZ_RSS_LIMIT:-2048}

fail() { echo "fuzz : $*" >&2; exit 1; }
usage="usage : scripts/stress/fuzz.sh [--seconds N] [--build-only] [CIBLE…]   (cibles : ${all_targets[*]} ; toutes par défaut)"
usage_error() { echo "fuzz : $*" >&2; echo "$usage" >&2; exit 64; }

while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) [ $# -ge 2 ] || usage_error "--seconds : un nombre de secondes attendu."; seconds=$2; shift 2 ;;
    --seconds=*) seconds=${1#--seconds=}; shift ;;
    --build-only) build_only=1; shift ;;
    -h|--help) echo "$usage"; exit 0 ;;
    -*) usage_error "option inconnue $1 (acceptées : --seconds N, --build-only)." ;;
    *)
      [[ " ${all_targets[*]} " == *" $1 "* ]] || usage_error "cible inconnue « $1 » (cibles : ${all_targets[*]})."
      targets+=("$1"); shift ;;
  esac
done
[[ $seconds =~ ^[1-9][0-9]*$ ]] || usage_error "--seconds : un nombre entier de secondes ≥ 1 attendu (reçu « $seconds »)."
[[ $per_input_timeout =~ ^[1-9][0-9]*$ ]] || usage_error "FUZZ_TIMEOUT : un nombre entier de secondes ≥ 1 attendu."
[[ $rss_limit =~ ^[1-9][0-9]*$ ]] || usage_error "FUZZ_RSS_LIMIT : un nombre entier de mégaoctets ≥ 1 attendu."
[ ${#targets[@]} -gt 0 ] || targets=("${all_targets[@]}")

command -v swift >/dev/null 2>&1 || fail "pas de « swift » dans le PATH ; installez la chaîne Swift 6 (swift.org)."

# libFuzzer's runtime without main, from the toolchain's own clang (the one that matches its
# sanitizer runtimes). It is C++ built against libstdc++.
toolchain_bin=$(dirname "$(readlink -f "$(command -v swift)")")
arch=$(uname -m)
fuzzer_runtime=""
for dir in "$("$toolchain_bin/clang" --print-runtime-dir 2>/dev/null || true)" "$toolchain_bin"/../lib/clang/*/lib/linux; do
  for name in libclang_rt.fuzzer_no_main.a "libclang_rt.fuzzer_no_main-$arch.a"; do
    if [ -n "$dir" ] && [ -f "$dir/$name" ]; then fuzzer_runtime=$dir/$name; break 2; fi
  done
done
[ -n "$fuzzer_runtime" ] || fail "libclang_rt.fuzzer_no_main introuvable dans la chaîne Swift ($toolchain_bin/../lib/clang) ; une chaîne swift.org pour Linux l’inclut."

echo "fuzz : construction de attestation-fuzz (libFuzzer, address sanitizer) dans .build-fuzz…" >&2
(cd "$root" && swift build -c release --scratch-path "$scratch" --product attestation-fuzz \
  --sanitize=address \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table -Xswiftc -DFUZZING \
  -Xlinker --whole-archive -Xlinker "$fuzzer_runtime" -Xlinker --no-whole-archive -Xlinker -lstdc++) \
  || fail "la construction a échoué."
[ -x "$binary" ] || fail "$binary introuvable après la construction."
[ $build_only -eq 1 ] && exit 0

# Longest input per target: a whole token (2,048 characters) and its mode byte; a request line
# well past what a real link needs; the built-in forms (9 KB) with room to grow; a font and a
# picture at the sizes a form accepts (FontFile.maximumBytes is 4 MiB, but Luciole, 164 KiB, is
# the seed: longer inputs only slow each run).
max_len() {
  case "$1" in
    link-token) echo 2100 ;;
    query) echo 4096 ;;
    form-json) echo 12288 ;;
    font-file) echo 262144 ;;
    png-picture) echo 262144 ;;
  esac
}

work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The toolchain's own leaks, as in `make test`; the Swift runtime's backtracer off, so a trap
# reaches libFuzzer's handler, which saves the input.
export LSAN_OPTIONS="suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:symbolize=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export SWIFT_BACKTRACE=enable=no
export TMPDIR=$work

# The seeds are written by the fixture (tokens signed with its test key, the built-in forms as
# they load): a corpus that no longer matches it misses what the code learned since, such as
# new routes or forms, so the regressions it should replay first go unseen.
fresh=$work/seeds
mkdir -p "$fresh"
"$binary" write-seeds "$fresh" >/dev/null || fail "write-seeds a échoué."
if ! stale=$(diff -rq "$fresh" "$corpus_root" 2>&1); then
  echo "$stale" | sed "s|$fresh|(écrites)|; s|$corpus_root|Tests/Fuzz/Corpus|" | head -10 >&2
  fail "les graines de Tests/Fuzz/Corpus ne sont plus celles que le code écrit ; régénérez-les : rm -rf Tests/Fuzz/Corpus && ${binary#"$root"/} write-seeds Tests/Fuzz/Corpus, puis relisez le diff."
fi

results=()
failed=0
for target in "${targets[@]}"; do
  seeds=$corpus_root/$target
  [ -d "$seeds" ] || fail "$target : corpus de départ $seeds introuvable."
  corpus=$work/corpus/$target
  artifacts=$work/artifacts/$target
  mkdir -p "$corpus" "$artifacts"
  cp "$seeds"/* "$corpus"/
  dict=()
  [ -f "$root/Tests/Fuzz/$target.dict" ] && dict=("-dict=$root/Tests/Fuzz/$target.dict")
  log=$work/$target.log
  echo "fuzz : $target pendant $seconds s ($(ls "$seeds" | wc -l) graines)…" >&2
  status=0
  "$binary" "$target" "$corpus" "${dict[@]}" \
    -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout="$per_input_timeout" \
    -rss_limit_mb="$rss_limit" -malloc_limit_mb="$rss_limit" -artifact_prefix="$artifacts/" \
    -print_final_stats=1 -detect_leaks=1 >"$log" 2>&1 || status=$?

  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1 || true)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([^ ]*\).*/\1/p' <<<"$last")
  # A clean run ends with libFuzzer's "Done"; anything it reports or saved is a failure.
  crash_files=$(find "$artifacts" -type f | sort)
  problem=""
  if [ $status -ne 0 ] || [ -n "$crash_files" ] || grep -qE '^==[0-9]+==ERROR|^SUMMARY: [A-Za-z]*Sanitizer|^ERROR: libFuzzer|^Fatal error|propriété violée' "$log"; then
    problem=$(grep -v '^INFO' "$log" | grep -m1 -E 'propriété violée|^==[0-9]+==ERROR|^ERROR: libFuzzer|^SUMMARY: |deadly signal|Fatal error|ALARM|out-of-memory|leak' || echo "code de sortie $status")
  elif ! grep -q '^Done [0-9]* runs' "$log"; then
    problem="libFuzzer s’est arrêté sans finir (code $status)"
  fi
  if [ -n "$problem" ]; then
    failed=1
    kept=$artifacts_root/$target
    mkdir -p "$kept"
    cp "$log" "$kept/libfuzzer.log"
    for file in $crash_files; do cp "$file" "$kept/"; done
    echo "fuzz : ÉCHEC de $target : $problem" >&2
    for file in $crash_files; do echo "fuzz :   entrée : $kept/$(basename "$file")" >&2; done
    echo "fuzz :   journal complet : $kept/libfuzzer.log ; fin :" >&2
    grep -vE '^(    #|  0x|Shadow|  [A-Z][a-z]+ |=+$)' "$log" | tail -25 | sed 's/^/    /' >&2
    results+=("$(printf '%-11s %6s %12s %8s %7s %8s %-14s %s' "$target" "${seconds}s" "${execs:--}" "${speed:--}" "${cov:--}" "${ft:--}" "${corp:--}" "ÉCHEC")")
  else
    results+=("$(printf '%-11s %6s %12s %8s %7s %8s %-14s %s' "$target" "${seconds}s" "${execs:--}" "${speed:--}" "${cov:--}" "${ft:--}" "${corp:--}" "ok")")
  fi
done

echo
printf '%-11s %6s %12s %8s %7s %8s %-14s %s\n' cible durée exécutions exéc/s cov ft corpus résultat
for line in "${results[@]}"; do echo "$line"; done
[ $failed -eq 0 ] || fail "au moins une cible a échoué ; entrées et journaux dans out/fuzz/."
