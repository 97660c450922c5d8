# shellcheck shell=bash disable=SC2034,SC2154 # server_url… are for the caller, harness_work from it
# The test harness for bash scripts (sourced: . "$root/scripts/harness/harness.sh"). The work
# itself is in attestation_harness.py, reached through `harness COMMAND` (python3 scripts/harness
# --help lists the commands); what stays here is what a bash script must do itself: start the
# server as its own child, so that `wait` gives the exit status, and stop it.
#
#   harness COMMAND …                      python3 scripts/harness COMMAND …
#   harness_use_bin [release|debug]        sets bin_dir, server_bin and admin_bin: ATTESTATION_BIN,
#                                          or that build, or the latest build; exports
#                                          ATTESTATION_BIN so that every harness command agrees
#   harness_start_server LABEL CONFIG [ARG…]
#       attestation-server (from $server_bin; run under $WRAP when set) with --config CONFIG,
#       --port 0 unless ARGs give --port, --log-format json, and ARGs; standard output and error
#       in $harness_work/LABEL.out and LABEL.log. Waits for its readiness line and sets
#       server_pid, server_url (no final /), server_port and server_log; fails the script with
#       the log when the server does not start.
#   harness_alive PID                      the process runs (not gone, not a zombie)
#   harness_stop PID [SECONDS]             SIGTERM, at most SECONDS (default 30) to exit, then
#                                          SIGKILL; returns its exit status
#   harness_stop_all                       harness_stop for every server still running (traps)
#
# The caller sets harness_work (a directory of its own) before starting a server.

harness_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
harness_pids=()

harness() { python3 "$harness_dir" "$@"; }

harness_use_bin() {
  bin_dir=$(harness bin-dir ${1:+--default "$1"})
  server_bin=$bin_dir/attestation-server
  admin_bin=$bin_dir/attestation-admin
  export ATTESTATION_BIN=$bin_dir
}

harness_alive() {
  [ -r "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status" 2>/dev/null
}

harness_start_server() {
  local label=$1 config=$2; shift 2
  local out=$harness_work/$label.out argument port_given=""
  server_log=$harness_work/$label.log
  for argument in "$@"; do [ "$argument" = --port ] && port_given=yes; done
  local port_arguments=(--port 0)
  [ -n "$port_given" ] && port_arguments=()
  : > "$out"  # before the server opens it, so that reading it never races
  # shellcheck disable=SC2086 # WRAP is a command line, split on spaces
  ${WRAP:-} "$server_bin" --config "$config" "${port_arguments[@]}" --log-format json "$@" >"$out" 2>"$server_log" &
  server_pid=$!
  harness_pids+=("$server_pid")
  local ready
  ready=$(harness wait-ready "$out" --pid "$server_pid" --log "$server_log" --print port,base) || {
    echo "$(basename "$0") : $label : le serveur n’a pas démarré." >&2
    exit 1
  }
  read -r server_port server_url <<< "$ready"
}

harness_forget() {
  local keep=() pid
  for pid in "${harness_pids[@]}"; do [ "$pid" = "$1" ] || keep+=("$pid"); done
  harness_pids=("${keep[@]}")
}

harness_stop() {
  local pid=$1 seconds=${2:-30} status=0 tenths
  kill -TERM "$pid" 2>/dev/null || true
  for (( tenths = 0; tenths < seconds * 10; tenths++ )); do
    harness_alive "$pid" || break
    sleep 0.1
  done
  harness_alive "$pid" && kill -KILL "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null || status=$?
  harness_forget "$pid"
  return $status
}

harness_stop_all() {
  local pid
  for pid in "${harness_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${harness_pids[@]}"; do harness_stop "$pid" 5 || true; done
}
