#!/usr/bin/env bash
# Apache Otava in a venv of its own: the reference the change-point detector is checked against
# (__tests__/change-points.test.ts). Only its algorithm and what that imports (numpy, scipy) are
# installed, at the versions apache-otava 0.8.0 pins; its CLI's integrations are not needed.
# Prints the venv's python. Env: GLB_CACHE (default /var/cache/gnes-latency-bench).
set -euo pipefail
venv="${GLB_CACHE:-/var/cache/gnes-latency-bench}/otava-0.8.0"
if [[ ! -x "$venv/bin/python" ]] || ! "$venv/bin/python" -c 'import otava.analysis' 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q numpy==2.2.0 'scipy>=1.16,<1.17'
  "$venv/bin/pip" install -q --no-deps apache-otava==0.8.0
fi
echo "$venv/bin/python"
