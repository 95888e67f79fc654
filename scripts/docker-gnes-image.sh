#!/usr/bin/env bash
# Builds the GNES image for one version offline: the wheelhouse is made on the host (pip reaches
# the index there), then the build installs from it with --no-index. Skips when the tag exists.
# usage: docker-gnes-image.sh [VERSION] [BASE_IMAGE]; prints the image tag on its last line.
# The tag is gnes-latency-bench/gnes:<version>-<hash of version, base and Dockerfile>, the same
# one src/engine/docker/image.ts computes, so the engine finds this image instead of rebuilding.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-0.0.47}
base=${2:-gnes-latency-bench/base:bookworm}
cache=${GLB_CACHE:-/var/cache/gnes-latency-bench}
wheelhouse=$cache/wheelhouse/$version
dockerfile=$root/docker/Dockerfile

hash=$({ printf '%s\n%s\n' "$version" "$base"; cat "$dockerfile"; } | sha256sum | cut -c1-12)
tag=gnes-latency-bench/gnes:$version-$hash
if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "GNES image $tag is present" >&2
  echo "$tag"
  exit 0
fi
"$root/scripts/docker-wheelhouse.sh" "$version" "$wheelhouse" >&2
echo "building $tag from $base (offline, wheelhouse $wheelhouse)" >&2
# The context is a tar on stdin: the Dockerfile plus the wheelhouse under wheelhouse/.
tar -c -C "$root/docker" Dockerfile \
  -C "$cache/wheelhouse" --exclude=.complete --transform "s,^$version,wheelhouse," "$version" |
  docker build -q -t "$tag" \
    --build-arg "BASE_IMAGE=$base" \
    --build-arg "GNES_VERSION=$version" \
    --build-arg "GNES_BUILD_DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
    --label "io.gnes-latency-bench.base-image=$base" \
    - >&2
echo "$tag"
