#!/usr/bin/env bash
# The base image the gRPC example's Dockerfile names, node:20-slim: pulled where a registry
# answers, else a stand-in made here with the traits of the real one that its build meets: Debian
# bookworm with Node.js 20 and npm, reaching the npm registry. It is the python:3.11-slim stand-in
# (docker-base-image.sh, run first: Debian, the host's CA bundle) with this machine's node binary
# and npm copied in, and NODE_EXTRA_CA_CERTS naming that bundle, since Node trusts only its own
# authorities otherwise: what the real internet gives a runner.
# usage: docker-node-image.sh [TAG]   (default node:20-slim)
set -euo pipefail
tag=${1:-node:20-slim}
base=${GLB_BASE_IMAGE:-python:3.11-slim}

source "$(dirname "$0")/present-or-pull.sh"
present_or_pulled "$tag" && exit 0
node=$(command -v node) npm=$(dirname "$(readlink -f "$(command -v npm)")")/..
[[ $(node --version) == v20.* ]] || { echo "the stand-in for $tag needs Node.js 20 here, not $(node --version)" >&2; exit 1; }
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp "$(readlink -f "$node")" "$context/node"
cp -r "$(readlink -f "$npm")" "$context/npm"
cat >"$context/Dockerfile" <<DOCKERFILE
FROM $base
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && node --version && npm --version
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
DOCKERFILE
docker build -q -t "$tag" --label "io.gnes-latency-bench.stand-in=$tag" "$context" >/dev/null
echo "built a stand-in for $tag on $base with node $(node --version)"
