#!/usr/bin/env bash
# Publishes files into a directory the way the kubelet updates a mounted ConfigMap, for machines
# without a cluster (scripts/stress/stress-scaleout.sh): the files never change in place, a new version
# appears at once by the swap of one symbolic link, and nothing signals the reader.
#
#   Tests/Deploy/configmap_swap.sh TARGET_DIR FILE...
#
# The kubelet's AtomicWriter (pkg/volume/util/atomic_writer.go in kubernetes/kubernetes) lays a
# ConfigMap volume out as
#
#   TARGET_DIR/..2026_11_23_15_06_22.3170519824/revoked.txt  this version's files
#   TARGET_DIR/..data -> ..2026_11_23_15_06_22.3170519824    the version in force
#   TARGET_DIR/revoked.txt -> ..data/revoked.txt             what the pod opens
#
# and publishes a version in the same steps as this script: the files written into a new
# timestamped directory, a `..data_tmp` link to it renamed over `..data` (one atomic rename),
# the user-visible links made if missing, the previous version's directory removed. The first
# call makes the layout.
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: configmap_swap.sh TARGET_DIR FILE..." >&2; exit 64; }
target=$1; shift
mkdir -p "$target"
previous=""
[ -L "$target/..data" ] && previous=$(readlink "$target/..data")
version=$(basename "$(mktemp -d "$target/..$(date -u +%Y_%m_%d_%H_%M_%S).XXXXXXXXXX")")
chmod 755 "$target/$version"
for file in "$@"; do
  cp "$file" "$target/$version/$(basename "$file")"
done
ln -s "$version" "$target/..data_tmp"
mv -T "$target/..data_tmp" "$target/..data"
for file in "$@"; do
  name=$(basename "$file")
  [ -L "$target/$name" ] || ln -s "..data/$name" "$target/$name"
done
if [ -n "$previous" ] && [ "$previous" != "$version" ]; then rm -rf "${target:?}/$previous"; fi
