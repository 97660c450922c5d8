#!/bin/sh
# piuparts's custom script for attestation-links (scripts/deb-piuparts.sh runs piuparts with
# --scriptsdir Tests/Deploy/piuparts): what piuparts does not check by itself of /etc/attestation,
# the configuration and signing key that the package's postinst writes with attestation-admin
# init and that its postrm deletes on purge. piuparts copies it into its chroot under each name
# below (symbolic links to this file) and runs it there at that step; it fails piuparts by
# exiting 1, with its reason in piuparts's log:
#
#   post_install_attestation  after a first installation (PIUPARTS_PHASE install: the install
#                             test's package file, and the upgrade test's older version from the
#                             archive): config.json, revoked.txt and keys/k1.key written
#   pre_install_attestation   before the upgrade (PIUPARTS_PHASE upgrade: the package file installed
#                             over the older version): every file and folder of /etc/attestation
#                             recorded (path, type, mode, owner, group, sha256) with the version
#   post_install_attestation  after the upgrade: a newer version installed, /etc/attestation the
#                             same, file by file
#   pre_remove_attestation    /etc/attestation recorded again, then piuparts runs apt-get remove
#   post_remove_attestation   the package removed, its configuration kept (deinstall ok
#                             config-files), /etc/attestation the same, file by file
#   post_purge_attestation    after dpkg --purge: /etc/attestation gone (piuparts fails on any
#                             file left as well), the system user attestation kept (Debian does
#                             not remove a system user)
#
# Output in English, as piuparts's log is.
set -eu

etc=/etc/attestation
step=$(basename "$0")
say() { echo "$step (${PIUPARTS_TEST:-?} test, ${PIUPARTS_PHASE:-?} phase): $*"; }
fail() {
  say "FAIL: $*"
  exit 1
}
snapshot() { # every file and folder of /etc/attestation: path, type, mode, owner, group, sha256
  find "$etc" -printf '%p %y %m %u %g\n' | sort | while read -r path type rest; do
    if [ "$type" = f ]; then
      echo "$path $type $rest $(sha256sum "$path" | cut -d' ' -f1)"
    else
      echo "$path $type $rest"
    fi
  done
}
status() { dpkg-query -W -f='${Status} ${Version}' attestation-links 2>/dev/null || true; }
same_as() { # same_as RECORD WHEN: /etc/attestation as recorded in RECORD
  snapshot >"$1.after"
  if ! diff -u "$1" "$1.after"; then
    fail "/etc/attestation changed $2 (diff above: recorded before, then after)"
  fi
  say "/etc/attestation the same $2: $(wc -l <"$1") entries, sha256, mode, owner and group"
}

case "$step:${PIUPARTS_PHASE:-}" in
  post_install_*:install)
    for file in config.json revoked.txt keys/k1.key; do
      [ -f "$etc/$file" ] || fail "$etc/$file missing after the first installation ($(status))"
    done
    say "first installation ($(status)): $etc/config.json, revoked.txt and keys/k1.key written"
    ;;
  pre_install_*:upgrade)
    status | awk '{ print $4 }' >/tmp/attestation-version.before-upgrade
    snapshot >/tmp/attestation-etc.before-upgrade
    say "$etc recorded before the upgrade from $(cat /tmp/attestation-version.before-upgrade)"
    ;;
  post_install_*:upgrade)
    old=$(cat /tmp/attestation-version.before-upgrade)
    new=$(status | awk '{ print $4 }')
    dpkg --compare-versions "$new" gt "$old" || fail "the upgrade left version $new installed, not one above $old"
    say "upgraded from $old to $new"
    same_as /tmp/attestation-etc.before-upgrade "across the upgrade"
    ;;
  pre_remove_*)
    snapshot >/tmp/attestation-etc.before-remove
    ;;
  post_remove_*)
    case "$(status)" in
      "deinstall ok config-files "*) ;;
      *) fail "after apt-get remove, dpkg says: $(status)" ;;
    esac
    same_as /tmp/attestation-etc.before-remove "across apt-get remove"
    ;;
  post_purge_*)
    [ ! -e "$etc" ] || fail "$etc still there after the purge: $(find "$etc" | tr '\n' ' ')"
    getent passwd attestation >/dev/null || fail "the system user attestation was removed by the purge"
    say "$etc gone after the purge, the system user attestation kept"
    ;;
esac
