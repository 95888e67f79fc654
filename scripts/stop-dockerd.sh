# Sourced by docker-daemon.sh and swarm-teardown.sh, which each stop a dockerd they started.
# stop_dockerd PID: SIGTERM, up to 30 s to exit, then SIGKILL. Fails, touching nothing, when PID is
# no dockerd: a stale pidfile may name a reused pid.
stop_dockerd() {
  local pid=$1
  [[ "$(cat "/proc/$pid/comm" 2>/dev/null)" == dockerd ]] || return 1
  kill -TERM "$pid"
  for _ in $(seq 1 30); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 1
  done
  kill -KILL "$pid" 2>/dev/null || true
}
