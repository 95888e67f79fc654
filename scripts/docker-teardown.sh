#!/usr/bin/env bash
# Stops the dockerd that docker-setup.sh started (none other). Images stay in /var/lib/docker,
# so the next run on this machine skips the builds.
set -euo pipefail
"$(cd "$(dirname "$0")" && pwd)/docker-daemon.sh" stop
