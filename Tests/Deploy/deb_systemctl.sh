#!/bin/sh
# A stand-in for systemctl inside scripts/check-deb.sh's fresh Debian root, where no systemd
# runs: first on PATH (/usr/local/sbin, and apt's DPkg::Path, which sets the PATH of the
# maintainer scripts) while the package is installed, upgraded, removed and purged, so that what the package's maintainer scripts ask of systemd (debhelper's
# deb-systemd-invoke) is recorded, one line a call, in /run/check-deb/systemctl.log, and done:
#
#   start UNIT      the installed unit's ExecStartPre, then its ExecStart in the background, as
#                   its User and Group, with its UMask, no capabilities and no new privileges
#                   (setpriv); the pid in /run/check-deb/UNIT.pid, the outputs beside it
#   stop UNIT       SIGTERM, then up to 20 s for it to end (the unit's TimeoutStopSec)
#   restart UNIT    stop, then start
#   is-active UNIT  whether that pid runs
#   daemon-reload   recorded only
#   anything else   the real systemctl, offline (--root=/): enable, preset, is-enabled… work on
#                   the unit files and the symbolic links of /etc/systemd
#
# Only for attestation-server.service; any other unit is refused. The unit's Exec lines are
# read from the installed file, so a wrong path there fails here as it would under systemd.
set -eu

state=/run/check-deb
mkdir -p "$state"
echo "$*" >>"$state/systemctl.log"

verb=
unit=
for word in "$@"; do
  case "$word" in
    -*) ;;
    *) if [ -z "$verb" ]; then verb=$word; elif [ -z "$unit" ]; then unit=$word; fi ;;
  esac
done

case "$verb" in
  start | stop | restart | is-active) ;;
  daemon-reload) exit 0 ;;
  *)
    # enable, preset, is-enabled… on the unit files alone: the real systemctl, offline.
    case " $* " in *" --root="*) exec /usr/bin/systemctl "$@" ;; *) exec /usr/bin/systemctl --root=/ "$@" ;; esac
    ;;
esac
[ "$unit" = attestation-server.service ] || {
  echo "deb_systemctl: unit $unit not handled" >&2
  exit 1
}
file=
for folder in /etc/systemd/system /usr/lib/systemd/system /lib/systemd/system; do
  if [ -f "$folder/$unit" ]; then
    file=$folder/$unit
    break
  fi
done
[ -n "$file" ] || {
  echo "deb_systemctl: $unit not installed" >&2
  exit 1
}
value() { sed -n "s/^$1=//p" "$file" | tail -n 1; }
pidfile=$state/$unit.pid

running() { [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; }

stop() {
  running || return 0
  pid=$(cat "$pidfile")
  kill -TERM "$pid"
  for _ in $(seq 200); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$pid" 2>/dev/null; then
    echo "deb_systemctl: $unit still running 20 s after SIGTERM" >&2
    kill -KILL "$pid"
  fi
  rm -f "$pidfile"
}

start() {
  running && return 0
  user=$(value User)
  group=$(value Group)
  umask "$(value UMask)"
  as_user="setpriv --reuid=$user --regid=$group --init-groups --no-new-privs --bounding-set=-all --inh-caps=-all --"
  # shellcheck disable=SC2046
  if ! env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 $as_user $(value ExecStartPre) \
    >"$state/ExecStartPre.out" 2>&1; then
    echo "deb_systemctl: ExecStartPre failed: $(tail -n 3 "$state/ExecStartPre.out")" >&2
    return 1
  fi
  # shellcheck disable=SC2046
  setsid env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 $as_user $(value ExecStart) \
    </dev/null >"$state/server.out" 2>"$state/server.err" &
  echo $! >"$pidfile"
}

case "$verb" in
  is-active) running ;;
  start) start ;;
  stop) stop ;;
  restart) stop && start ;;
esac
