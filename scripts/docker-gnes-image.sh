#!/usr/bin/env bash
# Builds the GNES image of one release from PyPI on the base image, as the Docker engine does on a
# runner (pip inside the build reaches the index; a compiler only in the build stage). Skips when
# the tag exists. The swarm worker gets a copy (swarm-setup.sh), so it is built before the tests.
# usage: docker-gnes-image.sh [VERSION] [BASE_IMAGE]; prints the image tag on its last line.
# The tag is gnes-latency-bench/gnes:<version>-<hash of version, base and Dockerfile>, the one
# src/engine/docker/image.ts computes, so the engine finds this image instead of rebuilding.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${1:-0.0.47}
base=${2:-python:3.11-slim}
dockerfile=$root/docker/Dockerfile

hash=$({ printf '%s\n%s\n' "$version" "$base"; cat "$dockerfile"; } | sha256sum | cut -c1-12)
tag=gnes-latency-bench/gnes:$version-$hash
if docker image inspect "$tag" >/dev/null 2>&1; then
  echo "GNES image $tag is present" >&2
  echo "$tag"
  exit 0
fi
echo "building $tag from PyPI on $base" >&2
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp "$dockerfile" "$context/Dockerfile"
mkdir "$context/gnes-src"
docker build -q -t "$tag" \
  --build-arg "BASE_IMAGE=$base" \
  --build-arg "GNES_VERSION=$version" \
  --build-arg "GNES_BUILD_DATE=$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  --label "io.gnes-latency-bench.base-image=$base" \
  "$context" >&2
echo "$tag"
