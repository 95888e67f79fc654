#!/usr/bin/env bash
# Undoes scripts/swarm-setup.sh: stops the worker dockerd it started (and removes its node from the
# swarm), leaves swarm mode only when setup started it, and deletes the network namespace it made
# (the veth pair goes with it). Anything it did not start is left alone.
set -euo pipefail
source "$(dirname "$0")/stop-dockerd.sh"
state=${GLB_STATE_DIR:-/var/run/gnes-latency-bench}
wdir=$state/worker-1
netns=glb-swarm-w1

if [[ -f $wdir/dockerd.pid ]]; then
  pid=$(cat "$wdir/dockerd.pid")
  node=$(docker -H "unix://$wdir/docker.sock" info --format '{{.Swarm.NodeID}}' 2>/dev/null || true)
  docker -H "unix://$wdir/docker.sock" swarm leave --force >/dev/null 2>&1 || true
  if stop_dockerd "$pid"; then echo "swarm-teardown: stopped the worker dockerd (pid $pid)"; fi
  rm -f "$wdir/dockerd.pid"
  if [[ -n $node ]]; then docker node rm --force "$node" >/dev/null 2>&1 || true; fi
fi
if [[ -f $state/swarm-started ]]; then
  docker swarm leave --force >/dev/null
  rm -f "$state/swarm-started"
  echo "swarm-teardown: left swarm mode (swarm-setup.sh had started it)"
fi
if [[ -f $state/swarm-netns ]]; then
  ip netns delete "$netns" 2>/dev/null || true
  # The veth pair goes with the namespace, asynchronously; a setup right after must not see it.
  for _ in $(seq 1 50); do ip link show glb-veth-m >/dev/null 2>&1 || break; sleep 0.1; done
  rm -f "$state/swarm-netns"
fi
