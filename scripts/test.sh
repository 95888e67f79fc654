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

# Go builds the workflow tools below (actionlint, and act for the runner twin). Machines of this
# project's kind have it in /usr/local/go; elsewhere Debian's golang-go, if new enough.
export PATH="$PATH:/usr/local/go/bin:${GOPATH:-$HOME/go}/bin"
if ! command -v go >/dev/null; then
  step "installing Debian's golang-go (actionlint and act are built with it)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq golang-go >/dev/null
fi
go_tool() { # NAME MODULE@VERSION: installs the tool unless that version is on PATH
  if ! command -v "$1" >/dev/null || ! "$1" --version 2>&1 | grep -qF "${2##*@v}"; then
    step "installing $1 ${2##*@} (go install)"
    go install "$2" || { echo "go install $2 failed with $(go version): it needs a newer Go" >&2; exit 1; }
  fi
}
go_tool actionlint github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
go_tool act github.com/nektos/act@v0.2.89

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

# Suites that share the cores first (both), then those that start services one at a time
# (jest.config.mjs says which are which); both passes run, and either failing fails the test.
status=0
step "jest: suites that share the cores"
npx jest --selectProjects shared --maxWorkers 2 --passWithNoTests "$@" || status=$?
step "jest: suites that start services, one at a time"
npx jest --selectProjects alone --maxWorkers 1 --passWithNoTests "$@" || status=$?
exit "$status"
