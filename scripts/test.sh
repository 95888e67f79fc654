#!/usr/bin/env bash
# The project's test command (`npm test`). On a machine of this kind (Debian, root, no Docker
# engine running, no registry) it first installs and starts what the tests need, then checks
# types, lint, formatting and that dist/ is fresh, runs jest, and stops what it started.
#
# The set-up runs in two lanes beside the static checks, since each mostly waits on something
# else (dpkg and image builds; go builds and pip): the system lane (Docker, its images, swarm) and
# the tools lane (actionlint, act, Apache Otava). The suites that share the cores start once the
# tools are there; the suites that start services start once everything is, one at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
step() { echo "== npm test (+$(($(date +%s) - started))s): $*"; }
lanes=$(mktemp -d)
export PATH="$PATH:/usr/local/go/bin:${GOPATH:-$HOME/go}/bin"

# Debian's packages first, in one dpkg run (the lanes below would contend for its lock):
# Chromium for the dashboard test; Go for the workflow tools where none is installed
# (/usr/local/go on machines of this project's kind, else Debian's golang-go, if new enough).
packages=()
[[ -x /usr/bin/chromium ]] || packages+=(chromium)
command -v go >/dev/null || packages+=(golang-go)
if ((${#packages[@]})); then
  step "installing Debian's ${packages[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${packages[@]}" >/dev/null
fi

# On the way out, a lane still running is let finish (so the teardown does not race its set-up).
trap 'wait || true; step "stopping what the set-up started"; bash scripts/swarm-teardown.sh; bash scripts/docker-teardown.sh; rm -rf "$lanes"' EXIT

# The system lane: a Docker engine, the GNES and example images, swarm mode with a second node.
step "system lane started: docker engine, images, swarm (log: $lanes/system.log)"
(
  echo "-- scripts/docker-setup.sh"
  bash scripts/docker-setup.sh
  echo "-- scripts/swarm-setup.sh --worker: swarm mode and a second node in a network namespace"
  bash scripts/swarm-setup.sh --worker
) >"$lanes/system.log" 2>&1 &
system=$!

# The tools lane: the workflow tools (pinned releases, go install) and the change-point reference.
step "tools lane started: actionlint, act, Apache Otava (log: $lanes/tools.log)"
(
  go_tool() { # NAME MODULE@VERSION: installs the tool unless that version is on PATH
    if ! command -v "$1" >/dev/null || ! "$1" --version 2>&1 | grep -qF "${2##*@v}"; then
      echo "-- installing $1 ${2##*@} (go install)"
      go install "$2" || { echo "go install $2 failed with $(go version): it needs a newer Go" >&2; exit 1; }
    fi
  }
  go_tool actionlint github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
  go_tool act github.com/nektos/act@v0.2.89
  echo "-- Apache Otava, the change-point reference (scripts/otava-venv.sh)"
  bash scripts/otava-venv.sh >"$lanes/otava-python"
) >"$lanes/tools.log" 2>&1 &
tools=$!

# A lane's log is printed when it ends; one that failed fails the command.
lane() { # NAME PID
  local rc=0
  wait "$2" || rc=$?
  sed "s/^/[$1] /" "$lanes/$1.log"
  if ((rc)); then
    step "the $1 lane failed (exit $rc)"
    exit "$rc"
  fi
  step "$1 lane done"
}

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

# Every jest pass runs, and any failing fails the test (jest.config.mjs says which suite is in
# which): the suites that share the cores, on both; those that start services but check no figure,
# two at a time; then those that start services and check figures, one at a time.
status=0
lane tools "$tools"
OTAVA_PYTHON=$(cat "$lanes/otava-python")
export OTAVA_PYTHON
step "jest: suites that share the cores"
npx jest --selectProjects shared --maxWorkers 2 --passWithNoTests "$@" || status=$?
lane system "$system"
step "jest: suites that start services and check no figure, two at a time"
npx jest --selectProjects beside --maxWorkers 2 --passWithNoTests "$@" || status=$?
step "jest: suites that start services, one at a time"
npx jest --selectProjects alone --maxWorkers 1 --passWithNoTests "$@" || status=$?
step "done (exit $status)"
exit "$status"
