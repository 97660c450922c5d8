#!/usr/bin/env bash
# Runs attestation-server.service's ExecStartPre and ExecStart, as written, inside the unit's
# file-system and privilege sandbox rebuilt by hand, for machines without a running systemd.
#
#   Tests/Deploy/unit_namespace.sh UNIT_FILE CONFIG_DIR SERVER_BINARY
#
# Needs root with CAP_SYS_ADMIN (unshare, mount); scripts/check-deploy.sh skips it otherwise. In a
# new mount and PID namespace (nothing outside changes: /usr/local is a tmpfs and /etc an overlay
# whose upper layer is under CONFIG_DIR/..):
#
#   the unit's paths      SERVER_BINARY at /usr/local/bin/attestation-server, CONFIG_DIR at
#                         /etc/attestation (bound, so that a change made to it from outside, as
#                         an administrator makes one, reaches the server: reload on change)
#   InaccessiblePaths=    /etc/attestation/keys an empty directory nobody may enter, and
#                         /etc/attestation/links.jsonl an empty file nobody may read
#   ProtectSystem=strict  every mount read-only but /proc, /sys, /dev
#   ProtectHome=yes       empty read-only /home, /root, /run/user
#   PrivateTmp=yes        fresh /tmp and /var/tmp
#   PrivateDevices=yes    a /dev of null, zero, full, random, urandom, tty only
#   ProtectProc=invisible, ProcSubset=pid    /proc with hidepid=invisible,subset=pid
#   User=, NoNewPrivileges=yes, CapabilityBoundingSet=    nobody (65534), no-new-privs, no capability
#   the seccomp settings  Tests/Deploy/unit_seccomp.py
#
# Each of those settings must be in the unit file, or this refuses to run (so the two stay
# alike). The server is then PID 1 of its namespace, as in a container; its PID in the caller's
# namespace is the only child of this script's unshare process.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ "${1:-}" != --inside ]; then
  [ $# -eq 3 ] || { echo "usage: unit_namespace.sh UNIT_FILE CONFIG_DIR SERVER_BINARY" >&2; exit 64; }
  unit=$1
  for setting in ProtectSystem=strict ProtectHome=yes PrivateTmp=yes PrivateDevices=yes ProtectProc=invisible \
                 ProcSubset=pid "InaccessiblePaths=-/etc/attestation/keys -/etc/attestation/links.jsonl" NoNewPrivileges=yes "CapabilityBoundingSet=" \
                 "ExecStart=/usr/local/bin/attestation-server --config /etc/attestation/config.json"; do
    grep -qx "$setting.*" "$unit" || { echo "unit_namespace: $unit has no $setting; update this emulation with the unit." >&2; exit 65; }
  done
  exec unshare --mount --pid --fork --kill-child "$0" --inside "$@"
fi
shift
unit=$1 config_dir=$(cd "$2" && pwd) server=$3
layer=$(dirname "$config_dir")/unit-namespace-etc
mkdir -p "$layer/upper" "$layer/work"

mount --make-rprivate /
mount -t tmpfs -o mode=755 tmpfs /usr/local
mkdir -p /usr/local/bin /usr/local/lib/unit-check
# This checkout may be under /home or /tmp, which the sandbox hides: the unit and the seccomp
# helper go with the binary.
cp "$unit" /usr/local/lib/unit-check/attestation-server.service
cp "$here/unit_seccomp.py" /usr/local/lib/unit-check/
unit=/usr/local/lib/unit-check/attestation-server.service
touch /usr/local/bin/attestation-server
mount --bind "$server" /usr/local/bin/attestation-server
mount -t overlay overlay -o "lowerdir=/etc,upperdir=$layer/upper,workdir=$layer/work" /etc
mkdir /etc/attestation
mount --bind "$config_dir" /etc/attestation
[ -d /etc/attestation/keys ] && mount -t tmpfs -o mode=000,size=4k tmpfs /etc/attestation/keys
if [ -f /etc/attestation/links.jsonl ]; then
  : > "$layer/inaccessible"
  chmod 000 "$layer/inaccessible"
  mount --bind "$layer/inaccessible" /etc/attestation/links.jsonl
fi
# ProtectSystem=strict (mounts of the sandboxing machinery, if any, are left as they are).
findmnt -rn -o TARGET | grep -vE '^/(proc|sys|dev)(/|$)|^/mnt/sandboxing' | while read -r target; do
  mount -o remount,bind,ro "$target" 2>/dev/null || true
done
for directory in /home /root /run/user; do
  [ -d "$directory" ] && mount -t tmpfs -o ro,mode=755,size=4k tmpfs "$directory"
done
mount -t tmpfs -o mode=1777,size=16m tmpfs /tmp
mount -t tmpfs -o mode=1777,size=16m tmpfs /var/tmp
host_dev=$(mktemp -d /tmp/dev.XXXXXX)
mount --rbind /dev "$host_dev"
mount -t tmpfs -o mode=755,size=64k tmpfs /dev
for node in null zero full random urandom tty; do
  touch "/dev/$node"
  mount --bind "$host_dev/$node" "/dev/$node"
done
umount -l "$host_dev"
mount -t proc -o hidepid=invisible,subset=pid proc /proc

# The unit's own command lines, the seccomp rules around each.
pre=$(sed -n 's/^ExecStartPre=//p' "$unit")
start=$(sed -n 's/^ExecStart=//p' "$unit")
python=/usr/bin/python3
[ -x "$python" ] || python=$(command -v python3)
drop=(setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs --bounding-set=-all --inh-caps=-all
      "$python" /usr/local/lib/unit-check/unit_seccomp.py "$unit" --)
# shellcheck disable=SC2086 # the unit's command lines, split on spaces as systemd does here
"${drop[@]}" $pre >&2
# shellcheck disable=SC2086
exec "${drop[@]}" $start
