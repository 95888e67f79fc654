#!/usr/bin/env bash
# The base image the action's defaults name, python:3.11-slim: pulled where a registry answers,
# else a stand-in made here with the traits of the real one that a build meets: Debian, Python
# 3.11 with venv and its headers, `python`, `python3` and `pip` in /usr/local/bin (pip and
# setuptools from the wheels Debian's python3-venv ships, so nothing is fetched; `pip install`
# allowed as in the real image, which has no EXTERNALLY-MANAGED marker), apt's sources but no
# package lists, no C compiler, no pip cache. It gets one thing more, the host's CA bundle,
# because this machine's trust store holds an authority the images lack (TLS from a container to
# the package index fails without it): what the real internet gives a runner. The Debian rootfs
# (debootstrap) is cached as a tarball and imported as gnes-latency-bench/stand-in-rootfs:bookworm,
# which the node:20-slim stand-in starts from too; repeat runs only import. A stand-in made by an
# older revision of this script (its traits label, TRAITS below) is made again.
# usage: docker-base-image.sh [TAG]   (default python:3.11-slim)
set -euo pipefail
tag=${1:-python:3.11-slim}
cache=${GLB_CACHE:-/var/cache/gnes-latency-bench}
tarball=$cache/python-3.11-slim-standin.tar
rootfs_tag=gnes-latency-bench/stand-in-rootfs:bookworm
traits=2
mirror=${GLB_DEBIAN_MIRROR:-http://deb.debian.org/debian}

source "$(dirname "$0")/present-or-pull.sh"
present_or_pulled "$tag" "$traits" && exit 0
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
docker import --change 'ENV LANG=C.UTF-8' \
  --message "Debian bookworm minbase + python3 (no compiler): the stand-ins' rootfs" \
  "$tarball" "$rootfs_tag" >/dev/null
# pip runs from its own wheel to install itself: Debian disables ensurepip for its python3.
DOCKER_BUILDKIT=0 docker build -q -t "$tag" --label "io.gnes-latency-bench.stand-in=$tag" \
  --label "io.gnes-latency-bench.stand-in.traits=$traits" - >/dev/null <<DOCKERFILE
FROM $rootfs_tag
RUN set -eu; pip=\$(echo /usr/share/python-wheels/pip-*.whl); \\
    rm -f /usr/lib/python3.11/EXTERNALLY-MANAGED; \\
    python3 "\$pip/pip" install -q --no-index --no-cache-dir \\
      "\$pip" /usr/share/python-wheels/setuptools-*.whl; \\
    ln -s /usr/bin/python3 /usr/local/bin/python3; ln -s python3 /usr/local/bin/python; \\
    python --version; pip --version; rm -rf /root/.cache
CMD ["python3"]
DOCKERFILE
echo "made a stand-in for $tag from $tarball"
