#!/usr/bin/env bash
# The Dockerfile frontend that a `# syntax=` line names (TAG: docker/dockerfile:1.4, or
# docker/dockerfile:1, the line most public Dockerfiles carry): pulled where a registry answers,
# else a stand-in built here from BuildKit's Go module (v0.10, which carries frontend 1.4:
# heredocs, RUN --mount) and tagged under that name, labelled as a stand-in (where the registry
# gives the newest 1.x for `:1`, the stand-in gives 1.4). BuildKit prefers a frontend image the
# daemon has to a pull, so a Dockerfile with the line builds as it does on a runner. Docker 20.10's
# built-in frontend (BuildKit 0.8) parses RUN --mount but not heredocs.
# usage: dockerfile-frontend.sh [TAG]   (default docker/dockerfile:1.4)
set -euo pipefail
tag=${1:-docker/dockerfile:1.4}
module=github.com/moby/buildkit@v0.10.6

source "$(dirname "$0")/present-or-pull.sh"
present_or_pulled "$tag" && exit 0
command -v go >/dev/null || { echo "the stand-in for $tag needs Go to build the frontend" >&2; exit 1; }
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
dir=$(go mod download -json "$module" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
(cd "$dir" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -tags 'netgo static_build osusergo' \
  -o "$context/dockerfile-frontend" ./frontend/dockerfile/cmd/dockerfile-frontend)
cat >"$context/Dockerfile" <<DOCKERFILE
FROM scratch
COPY dockerfile-frontend /bin/dockerfile-frontend
LABEL moby.buildkit.frontend.network.none="true"
LABEL moby.buildkit.frontend.caps="moby.buildkit.frontend.inputs,moby.buildkit.frontend.subrequests,moby.buildkit.frontend.contexts"
ENTRYPOINT ["/bin/dockerfile-frontend"]
DOCKERFILE
DOCKER_BUILDKIT=0 docker build -q -t "$tag" --label "io.gnes-latency-bench.stand-in=$tag" "$context" >/dev/null
echo "built a stand-in for $tag from $module"
