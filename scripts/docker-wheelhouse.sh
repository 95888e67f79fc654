#!/usr/bin/env bash
# Builds a pip wheelhouse for one GNES version on the host, because TLS from inside containers
# fails here: the image build then installs with `pip install --no-index` from it.
# usage: docker-wheelhouse.sh VERSION OUT_DIR   (idempotent: a complete wheelhouse is kept)
set -euo pipefail
version=${1:?usage: docker-wheelhouse.sh VERSION OUT_DIR}
out=${2:?usage: docker-wheelhouse.sh VERSION OUT_DIR}
if [[ -f "$out/.complete" ]]; then
  echo "wheelhouse $out is complete, reusing it"
  exit 0
fi
mkdir -p "$out"
# gnes builds a Cython extension, so it needs the build pins installed in the building interpreter.
venv="$out/.build-venv"
python3 -m venv "$venv"
pins=("cython<3" "numpy<2" "setuptools<81" wheel)
"$venv/bin/pip" install -q "${pins[@]}"
"$venv/bin/pip" wheel -q --wheel-dir "$out" "${pins[@]}" pip
"$venv/bin/pip" wheel -q --no-build-isolation --wheel-dir "$out" \
  "gnes==$version" "protobuf==3.20.3" grpcio "numpy<2" "setuptools<81"
rm -rf "$venv"
touch "$out/.complete"
echo "wheelhouse $out: $(ls "$out"/*.whl | wc -l) wheels"
