#!/usr/bin/env bash
# The OpenTelemetry SDK for the traced relay (examples/services/relay/relay_otel.py) on the local
# engine: a venv at .cache/otel-venv in the project's root, the interpreter that
# topologies/examples/http/chain-otlp.yml's command names. Its Docker image makes the same venv at
# the same relative place (examples/services/relay/Dockerfile.otel). Prints the venv's python.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
venv=$root/.cache/otel-venv
requirements=$root/examples/services/relay/requirements-otel.txt
if [[ ! -x "$venv/bin/python" ]] ||
  ! "$venv/bin/python" -c 'import opentelemetry.exporter.otlp.proto.http' 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r "$requirements"
fi
echo "$venv/bin/python"
