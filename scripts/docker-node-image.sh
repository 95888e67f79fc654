#!/usr/bin/env bash
# The base image the gRPC example's Dockerfile names, node:20-slim: pulled where a registry
# answers, else a stand-in made here with the traits of the real one that builds meet: Debian
# bookworm with Node.js 20, npm and corepack in /usr/local, Yarn 1.22 as `yarn` and `yarnpkg`
# (/opt/yarn-v1.22.22, as the real image installs it), the `node` user and group (1000), reaching
# the npm registry. It is the Debian rootfs of the python:3.11-slim stand-in
# (docker-base-image.sh, run first: the host's CA bundle; it keeps Debian's python3, which the
# real image lacks, but not pip) with this machine's node binary, npm and corepack copied in, and
# NODE_EXTRA_CA_CERTS naming that bundle, since Node trusts only its own authorities otherwise:
# what the real internet gives a runner. Yarn's package is fetched once from the npm registry
# with `npm pack` and cached; repeat runs are offline. A stand-in made by an older revision of
# this script (its traits label, TRAITS below) is made again.
# usage: docker-node-image.sh [TAG]   (default node:20-slim)
set -euo pipefail
tag=${1:-node:20-slim}
rootfs=gnes-latency-bench/stand-in-rootfs:bookworm
cache=${GLB_CACHE:-/var/cache/gnes-latency-bench}
yarn=1.22.22
traits=2

source "$(dirname "$0")/present-or-pull.sh"
present_or_pulled "$tag" "$traits" && exit 0
docker image inspect "$rootfs" >/dev/null 2>&1 ||
  { echo "the stand-in for $tag starts from $rootfs: run docker-base-image.sh first" >&2; exit 1; }
node=$(command -v node)
[[ $(node --version) == v20.* ]] || { echo "the stand-in for $tag needs Node.js 20 here, not $(node --version)" >&2; exit 1; }
# npm and corepack sit side by side in the node_modules Node.js installs them to.
modules=$(dirname "$(readlink -f "$(dirname "$(readlink -f "$(command -v npm)")")/..")")
[[ -d $modules/corepack ]] || { echo "the stand-in for $tag needs Node.js's corepack beside npm in $modules" >&2; exit 1; }
if [[ ! -f $cache/yarn-$yarn.tgz ]]; then
  mkdir -p "$cache"
  (cd "$cache" && npm pack -q "yarn@$yarn" >/dev/null)
fi
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp "$(readlink -f "$node")" "$context/node"
cp -r "$modules/npm" "$context/npm"
cp -r "$modules/corepack" "$context/corepack"
mkdir "$context/yarn" && tar -xzf "$cache/yarn-$yarn.tgz" -C "$context/yarn" --strip-components 1
cat >"$context/Dockerfile" <<DOCKERFILE
FROM $rootfs
RUN groupadd --gid 1000 node \\
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
COPY corepack /usr/local/lib/node_modules/corepack
COPY yarn /opt/yarn-v$yarn
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \\
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \\
 && ln -s ../lib/node_modules/corepack/dist/corepack.js /usr/local/bin/corepack \\
 && ln -s /opt/yarn-v$yarn/bin/yarn /usr/local/bin/yarn \\
 && ln -s /opt/yarn-v$yarn/bin/yarnpkg /usr/local/bin/yarnpkg \\
 && node --version && npm --version && corepack --version && yarn --version
ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt
CMD ["node"]
DOCKERFILE
docker build -q -t "$tag" --label "io.gnes-latency-bench.stand-in=$tag" \
  --label "io.gnes-latency-bench.stand-in.traits=$traits" "$context" >/dev/null
echo "built a stand-in for $tag on $rootfs with node $(node --version) and yarn $yarn"
