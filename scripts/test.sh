#!/usr/bin/env bash
# The project's test command (`npm test`). On a machine of this kind (Debian, root, no Docker
# engine running, no registry) it first installs and starts what the tests need, then checks
# types, lint, formatting and that dist/ is fresh, runs jest, and stops what it started.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { echo "== npm test: $*"; }

if [[ ! -x /usr/bin/chromium ]]; then
  step "installing Debian's chromium (dashboard test)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium >/dev/null
fi

actionlint="${GOPATH:-$HOME/go}/bin/actionlint"
if ! command -v actionlint >/dev/null && [[ ! -x "$actionlint" ]]; then
  step "installing actionlint (the workflows' check)"
  PATH="$PATH:/usr/local/go/bin" go install github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
fi

step "Apache Otava, the change-point reference (scripts/otava-venv.sh)"
OTAVA_PYTHON=$(bash scripts/otava-venv.sh)
export OTAVA_PYTHON

step "docker engine and the GNES image (scripts/docker-setup.sh)"
trap 'step "stopping what the set-up started"; bash scripts/swarm-teardown.sh; bash scripts/docker-teardown.sh' EXIT
bash scripts/docker-setup.sh
step "swarm mode and a second node in a network namespace (scripts/swarm-setup.sh --worker)"
bash scripts/swarm-setup.sh --worker

step "types"
npx tsc --noEmit
step "lint and formatting"
npx eslint .
npx prettier --check .
step "dist/ is the bundle of the sources"
fresh=$(mktemp -d)
node scripts/bundle.mjs --outdir "$fresh"
if ! diff -rq dist "$fresh"; then
  echo "dist/ is stale: run 'npm run build' and commit dist/" >&2
  exit 1
fi
rm -rf "$fresh"

step "jest"
npx jest "$@"
