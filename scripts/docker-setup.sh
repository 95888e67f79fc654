#!/usr/bin/env bash
# Everything the Docker engine's tests need on a machine with no registry, idempotent and cached:
#   1. Debian's docker.io (and debootstrap) when missing,
#   2. a dockerd in the background when none answers (pidfile; docker-teardown.sh stops it),
#   3. the base image (debootstrap + docker import; rootfs tarball cached),
#   4. the GNES image, built offline from a host-built wheelhouse (cached; skipped when present),
#   5. a wheelhouse for GNES 0.0.46, from which the paired Docker test's engine builds the base's
#      image itself (TLS from inside containers fails here, so pip in a build cannot reach PyPI),
#   6. the images of the generic examples (examples/services; rebuilt when their context changes),
#      and Debian's caddy on the host for the tree example on the local engine.
# Env: GLB_CACHE (default /var/cache/gnes-latency-bench), GLB_BASE_IMAGE
# (default gnes-latency-bench/base:bookworm), GLB_GNES_VERSION (default 0.0.47).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=${GLB_BASE_IMAGE:-gnes-latency-bench/base:bookworm}
version=${GLB_GNES_VERSION:-0.0.47}
started=$(date +%s)
step() { echo "docker-setup: $* (+$(($(date +%s) - started))s)"; }

if ! command -v dockerd >/dev/null || ! command -v debootstrap >/dev/null || ! command -v caddy >/dev/null; then
  step "installing docker.io, debootstrap and caddy"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq docker.io debootstrap caddy >/dev/null
fi
step "daemon"
"$here/docker-daemon.sh" start
step "base image $base"
"$here/docker-base-image.sh" "$base"
step "GNES $version image"
tag=$("$here/docker-gnes-image.sh" "$version" "$base")
step "GNES 0.0.46 wheelhouse (the paired test's base)"
"$here/docker-wheelhouse.sh" 0.0.46 "${GLB_CACHE:-/var/cache/gnes-latency-bench}/wheelhouse/0.0.46"
step "example images (generic HTTP topologies)"
"$here/docker-example-images.sh" "$base" >/dev/null
step "ready: $tag"
