# What every GNES image is built with, and nothing of GNES: a C compiler for its Cython extensions
# and a venv with the pinned dependencies, on the base the image will run on. Its own image
# (gnes-latency-bench/gnes-deps:<hash of this file and the base>), so a job on a fresh runner loads it
# from the Actions cache instead of installing a compiler and the dependencies again, and then builds
# only GNES itself (docker/Dockerfile's DEPS_IMAGE). It is never run.
ARG BASE_IMAGE=python:3.11-slim
FROM ${BASE_IMAGE}
# A compiler for the extensions, and Python's headers where the base's Python lacks them (Debian's
# own python3 without python3-dev). Only apt (Debian, Ubuntu) and apk (Alpine) are known. The
# package lists go: the image travels through the Actions cache.
RUN set -eux; \
    include=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["include"])'); \
    headers=; [ -f "$include/Python.h" ] || headers=python3-dev; \
    if command -v cc >/dev/null && [ -z "$headers" ]; then exit 0; fi; \
    if command -v apt-get >/dev/null; then \
      apt-get update -qq; \
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        gcc libc6-dev $headers >/dev/null; \
      rm -rf /var/lib/apt/lists/*; \
    elif command -v apk >/dev/null; then \
      apk add --no-cache gcc musl-dev $headers; \
    else \
      echo "the base image has no C compiler (or no Python.h) and neither apt-get nor apk to install one" >&2; \
      exit 1; \
    fi; \
    cc --version | head -n 1
# Pins: Cython 3 cannot build the extension, protobuf >= 4.21 rejects gnes_pb2.py, setuptools >= 81
# drops pkg_resources (the CLI imports it). A venv avoids Debian's externally-managed Python.
RUN set -eux; \
    python3 -m venv /opt/gnes; \
    /opt/gnes/bin/pip install -q --no-cache-dir "cython<3" "numpy<2" "setuptools<81" wheel \
      "protobuf==3.20.3" grpcio
