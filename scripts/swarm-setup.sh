#!/usr/bin/env bash
# Puts the Docker daemon into swarm mode for the swarm engine's tests, and optionally adds a
# second node on this same machine. Idempotent; scripts/swarm-teardown.sh undoes exactly what
# this started (a swarm that was already active is left as it was).
#
# usage: swarm-setup.sh            single-node swarm (docker swarm init) unless one is active
#        swarm-setup.sh --worker   also a worker node: a second dockerd in its own network
#                                  namespace and UTS namespace (hostname glb-worker-1), with its own
#                                  data root, exec root, socket and pidfile, joined over a veth
#                                  pair; the GNES image is copied to it with docker save | load.
#
# Only addresses inside the namespace made here carry traffic: the manager advertises the host
# end of the veth pair (10.213.37.1), the worker the other end (10.213.37.2).
# Env: GLB_STATE_DIR (default /var/run/gnes-latency-bench), GLB_SWARM_IMAGES (images to copy to
# the worker; default every gnes-latency-bench/gnes image on the manager).
set -euo pipefail
state=${GLB_STATE_DIR:-/var/run/gnes-latency-bench}
netns=glb-swarm-w1
veth=glb-veth-m
peer=glb-veth-w
manager_ip=10.213.37.1
worker_ip=10.213.37.2
wdir=$state/worker-1
wsock=unix://$wdir/docker.sock
mkdir -p "$state"

swarm_state() { docker info --format '{{.Swarm.LocalNodeState}}'; }
wdocker() { docker -H "$wsock" "$@"; }

link() {
  if ! ip netns list | grep -qw "$netns"; then
    ip netns add "$netns"
    touch "$state/swarm-netns"
  fi
  if ! ip link show "$veth" >/dev/null 2>&1; then
    ip link add "$veth" type veth peer name "$peer"
    ip link set "$peer" netns "$netns"
    ip addr add "$manager_ip/30" dev "$veth"
    ip link set "$veth" up
    ip netns exec "$netns" ip addr add "$worker_ip/30" dev "$peer"
    ip netns exec "$netns" ip link set "$peer" up
    ip netns exec "$netns" ip link set lo up
    ip netns exec "$netns" ip route add default via "$manager_ip"
  fi
}

link
case $(swarm_state) in
  active) echo "swarm-setup: swarm mode already active; leaving it as it is" ;;
  inactive)
    docker swarm init --advertise-addr "$manager_ip" --listen-addr "$manager_ip:2377" >/dev/null
    touch "$state/swarm-started"
    echo "swarm-setup: single-node swarm started (manager $manager_ip)"
    ;;
  *)
    echo "swarm-setup: swarm state is '$(swarm_state)'; fix it by hand (docker info)" >&2
    exit 1
    ;;
esac

[[ ${1:-} == --worker ]] || exit 0

if ! wdocker version >/dev/null 2>&1; then
  mkdir -p "$wdir"
  echo "swarm-setup: starting the worker dockerd in netns $netns (log $wdir/dockerd.log)"
  # nsenter, not `ip netns exec`: the latter remounts /sys, which hides the cgroup mounts.
  # DOCKER_SERVICE_PREFER_OFFLINE_IMAGE: a Swarm task otherwise tries a registry pull first, which
  # without a registry (and without DNS in the namespace) costs ~10 s per task before it starts.
  DOCKER_SERVICE_PREFER_OFFLINE_IMAGE=1 setsid nsenter --net="/var/run/netns/$netns" unshare --uts sh -c \
    "hostname glb-worker-1 && exec dockerd --data-root /var/lib/gnes-latency-bench/worker-1 \
      --exec-root $wdir/exec --pidfile $wdir/dockerd.pid -H $wsock" \
    >"$wdir/dockerd.log" 2>&1 </dev/null &
  for _ in $(seq 1 60); do
    wdocker version >/dev/null 2>&1 && break
    sleep 1
  done
  if ! wdocker version >/dev/null 2>&1; then
    echo "swarm-setup: the worker dockerd did not come up; last log lines:" >&2
    tail -n 20 "$wdir/dockerd.log" >&2
    exit 1
  fi
fi
images=${GLB_SWARM_IMAGES:-$(docker images --format '{{.Repository}}:{{.Tag}}' gnes-latency-bench/gnes)}
for image in $images; do
  if ! wdocker image inspect "$image" >/dev/null 2>&1; then
    echo "swarm-setup: copying $image to the worker (docker save | docker load)"
    docker save "$image" | wdocker load -q >/dev/null
  fi
done
if [[ $(wdocker info --format '{{.Swarm.LocalNodeState}}') != active ]]; then
  token=$(docker swarm join-token -q worker)
  manager=$(docker info --format '{{.Swarm.NodeAddr}}')
  wdocker swarm join --token "$token" --advertise-addr "$worker_ip" \
    --listen-addr "$worker_ip:2377" "$manager:2377" >/dev/null
fi
echo "swarm-setup: worker $(wdocker info --format '{{.Name}} {{.Swarm.NodeID}}') joined"
