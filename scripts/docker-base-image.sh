#!/usr/bin/env bash
# Makes a base image without any registry: debootstrap a minimal Debian bookworm (Python 3.11
# with venv) and `docker import` it. The rootfs tarball is cached, so repeat runs only import.
# usage: docker-base-image.sh [TAG]   (default gnes-latency-bench/base:bookworm)
set -euo pipefail
tag=${1:-gnes-latency-bench/base:bookworm}
cache=${GLB_CACHE:-/var/cache/gnes-latency-bench}
tarball=$cache/base-bookworm-python3.tar
mirror=${GLB_DEBIAN_MIRROR:-http://deb.debian.org/debian}

if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "base image $tag is present"
  exit 0
fi
if [[ ! -f "$tarball" ]]; then
  command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap
  mkdir -p "$cache"
  rootfs=$(mktemp -d "$cache/rootfs.XXXXXX")
  trap 'rm -rf "$rootfs"' EXIT
  echo "debootstrap bookworm into $rootfs"
  debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates \
    bookworm "$rootfs" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
    { tail -n 20 "$cache/debootstrap.log" >&2; exit 1; }
  rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
    "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/locale/*
  tar -C "$rootfs" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
fi
docker import --change 'CMD ["/bin/bash"]' --change 'ENV LANG=C.UTF-8' \
  --message "debootstrap bookworm minbase + python3" "$tarball" "$tag" >/dev/null
echo "imported $tarball as $tag"
