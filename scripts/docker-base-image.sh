#!/usr/bin/env bash
# The base image the action's defaults name, python:3.11-slim: pulled where a registry answers,
# else a stand-in made here with the traits of the real one that a build meets: Debian, Python
# 3.11 with venv and its headers, apt's sources but no package lists, no C compiler, no pip cache.
# It gets one thing more, the host's CA bundle, because this machine's trust store holds an
# authority the images lack (TLS from a container to the package index fails without it): what
# the real internet gives a runner. The rootfs tarball is cached; repeat runs only import.
# usage: docker-base-image.sh [TAG]   (default python:3.11-slim)
set -euo pipefail
tag=${1:-python:3.11-slim}
cache=${GLB_CACHE:-/var/cache/gnes-latency-bench}
tarball=$cache/python-3.11-slim-standin.tar
mirror=${GLB_DEBIAN_MIRROR:-http://deb.debian.org/debian}

source "$(dirname "$0")/present-or-pull.sh"
present_or_pulled "$tag" && exit 0
if [[ ! -f "$tarball" ]]; then
  command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap
  mkdir -p "$cache"
  rootfs=$(mktemp -d "$cache/rootfs.XXXXXX")
  trap 'rm -rf "$rootfs"' EXIT
  echo "debootstrap bookworm into $rootfs (a stand-in for $tag)"
  debootstrap --variant=minbase --include=python3,python3-venv,python3-dev,ca-certificates \
    bookworm "$rootfs" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -n 20 "$cache/debootstrap.log" >&2; exit 1; }
  if [[ -e "$rootfs/usr/bin/gcc" || -e "$rootfs/usr/bin/cc" ]]; then
    echo "the stand-in must have no C compiler, but debootstrap installed one" >&2
    exit 1
  fi
  cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/root/.cache
  tar -C "$rootfs" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
fi
docker import --change 'CMD ["python3"]' --change 'ENV LANG=C.UTF-8' \
  --message "stand-in for $tag: debootstrap bookworm minbase + python3 (no compiler)" \
  "$tarball" "$tag" >/dev/null
echo "imported $tarball as $tag"
