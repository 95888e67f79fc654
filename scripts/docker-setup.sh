#!/usr/bin/env bash
# Everything the Docker engine's tests need on a machine of this project's kind, idempotent:
#   1. a Docker engine: one that answers is used as it is; else an installed dockerd is started;
#      else Debian's docker.io is installed (never over Docker CE's packages), with debootstrap
#      and caddy,
#   2. a dockerd in the background when none answers (pidfile; docker-teardown.sh stops it),
#   3. the base image the action's defaults name, python:3.11-slim: pulled, or where no registry
#      answers a stand-in with its traits (docker-base-image.sh: python and pip on PATH, no
#      compiler); so for node:20-slim, the gRPC example's and public Node.js Dockerfiles' base
#      (docker-node-image.sh: npm, corepack, yarn, the node user), and the frontends `# syntax=` lines
#      name (dockerfile-frontend.sh): docker/dockerfile:1.4, and docker/dockerfile:1, which most
#      public Dockerfiles name,
#   4. the GNES image, built from PyPI on that base as a runner builds it (the swarm worker gets
#      a copy), and the images of the generic examples (examples/services).
# Env: GLB_BASE_IMAGE (default python:3.11-slim), GLB_GNES_VERSION (default 0.0.47).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
base=${GLB_BASE_IMAGE:-python:3.11-slim}
version=${GLB_GNES_VERSION:-0.0.47}
started=$(date +%s)
step() { echo "docker-setup: $* (+$(($(date +%s) - started))s)"; }
answers() { timeout 5 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
command -v caddy >/dev/null || missing+=(caddy)
if ! answers && ! command -v dockerd >/dev/null; then
  if dpkg-query -W -f '${Status}' containerd.io docker-ce docker-ce-cli 2>/dev/null | grep -q 'ok installed'; then
    echo "docker-setup: Docker CE's packages are installed but no dockerd is: install docker-ce (Debian's docker.io conflicts with them)" >&2
    exit 1
  fi
  missing+=(docker.io)
fi
if ((${#missing[@]})); then
  step "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${missing[@]}" >/dev/null
fi
step "daemon"
"$here/docker-daemon.sh" start
step "base image $base"
"$here/docker-base-image.sh" "$base"
step "node base image (node:20-slim)"
"$here/docker-node-image.sh"
step "Dockerfile frontends (# syntax=docker/dockerfile:1.4 and :1)"
"$here/dockerfile-frontend.sh" docker/dockerfile:1.4
"$here/dockerfile-frontend.sh" docker/dockerfile:1
step "GNES $version image"
tag=$(node "$here/run-ts.mjs" "$here/gnes-image.ts" "$version" "$base" | tail -n 1)
step "example images (generic HTTP topologies)"
"$here/docker-example-images.sh" "$base" >/dev/null
step "ready: $tag"
