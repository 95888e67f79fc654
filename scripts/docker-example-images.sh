#!/usr/bin/env bash
# Builds the images of the HTTP examples (topologies/examples/http/) offline, on the base image of
# docker-base-image.sh:
#   gnes-latency-bench/example-relay:1   examples/services/relay (relay.py; also the tree's nodes)
#   gnes-latency-bench/example-caddy:1   examples/services/caddy (Debian's caddy, the tree's balancer)
# Caddy's .deb and the dependencies the base lacks are fetched on the host with `apt-get download`
# into the context's debs/ (git-ignored). Idempotent: an image whose label records the hash of its
# context and base is kept; a changed context is rebuilt under the same tag.
# usage: docker-example-images.sh [BASE_IMAGE]; prints the image tags on its last lines.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-${GLB_BASE_IMAGE:-python:3.11-slim}}
services=$root/examples/services
# caddy's Depends (libc6, libzstd1, media-types are in the base image) plus their own.
caddy_debs=(caddy libnss3-tools libnss3 libnspr4)

fetch_debs() {
  local dir=$services/caddy/debs
  if ls "$dir"/caddy_*.deb >/dev/null 2>&1; then return; fi
  echo "apt-get download ${caddy_debs[*]} into $dir" >&2
  # As root, apt warns that its sandbox user cannot write here; downloading as root is intended.
  get() { (cd "$dir" && apt-get download -q -o APT::Sandbox::User=root "${caddy_debs[@]}") >&2; }
  get || { apt-get update -qq >&2 && get; }
}

# build TAG CONTEXT: docker build unless an image with this context's hash is present.
build() {
  local tag=$1 context=$2 hash have
  hash=$({ echo "$base"; cd "$context" && find . -type f ! -name .gitignore | LC_ALL=C sort |
    xargs sha256sum; } | sha256sum | cut -c1-12)
  have=$(docker image inspect -f '{{index .Config.Labels "io.gnes-latency-bench.context-hash"}}' \
    "$tag" 2>/dev/null || true)
  if [[ $have == "$hash" ]]; then
    echo "example image $tag is present" >&2
  else
    echo "building $tag from ${context#"$root"/} on $base (offline)" >&2
    docker build -q -t "$tag" --build-arg "BASE_IMAGE=$base" \
      --label "io.gnes-latency-bench.context-hash=$hash" \
      --label "io.gnes-latency-bench.base-image=$base" "$context" >&2
  fi
  echo "$tag"
}

docker image inspect "$base" >/dev/null 2>&1 ||
  { echo "base image $base is missing: run scripts/docker-base-image.sh" >&2; exit 1; }
fetch_debs
build gnes-latency-bench/example-relay:1 "$services/relay"
build gnes-latency-bench/example-caddy:1 "$services/caddy"
