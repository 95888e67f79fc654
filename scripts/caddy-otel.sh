#!/usr/bin/env bash
# Caddy with its `tracing` directive for the traced tree (topologies/examples/http/tree-otlp.yml):
# Debian's caddy is built without the tracing module, so this builds Caddy from its Go module
# (`go install`, modules from the Go proxy) into examples/services/caddy-otel/otel-bin/
# (git-ignored), where the topology's command and that folder's Dockerfile find it. Idempotent.
# Prints the binary's path.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=${CADDY_OTEL_VERSION:-v2.11.9}
bin=$root/examples/services/caddy-otel/otel-bin
if [[ -x $bin/caddy ]] && "$bin/caddy" list-modules | grep -qx http.handlers.tracing; then
  echo "$bin/caddy"
  exit 0
fi
echo "go install caddy $version into ${bin#"$root"/}" >&2
CGO_ENABLED=0 GOBIN=$bin GOFLAGS=-buildvcs=false \
  go install -trimpath -ldflags '-s -w' "github.com/caddyserver/caddy/v2/cmd/caddy@$version" >&2
echo "$bin/caddy"
