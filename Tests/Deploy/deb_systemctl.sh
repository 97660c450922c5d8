#!/bin/sh
# A stand-in for systemctl inside scripts/check-deb.sh's copy of a fresh Debian root, where no
# systemd runs: first on PATH (/usr/local/sbin, and apt's DPkg::Path, which sets the PATH of the
# maintainer scripts) while the package is installed, so that what its maintainer scripts ask of
# systemd (debhelper's deb-systemd-invoke) is recorded, one line a call, in
# /run/check-deb/systemctl.log:
#
#   start, stop, restart, reload…   recorded, answered as done, nothing started: the server is
#                                   started as its unit says by the package's smoke test
#                                   (debian/tests/smoke, run by autopkgtest)
#   is-active                       recorded, answered "inactive" (exit status 3)
#   anything else                   the real systemctl, offline (--root=/): enable, preset,
#                                   is-enabled… work on the unit files and the symbolic links
#                                   of /etc/systemd
set -eu

mkdir -p /run/check-deb
echo "$*" >>/run/check-deb/systemctl.log

verb=
for word in "$@"; do
  case "$word" in
    -*) ;;
    *) verb=$word && break ;;
  esac
done
case "$verb" in
  start | stop | restart | try-restart | reload | reload-or-restart | daemon-reload | reset-failed) exit 0 ;;
  is-active) exit 3 ;;
esac
case " $* " in *" --root="*) exec /usr/bin/systemctl "$@" ;; *) exec /usr/bin/systemctl --root=/ "$@" ;; esac
