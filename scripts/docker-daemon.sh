#!/usr/bin/env bash
# Starts dockerd in the background when no daemon answers, or stops the one this script started.
# usage: docker-daemon.sh start|stop
# Only a daemon recorded in our pidfile is ever stopped, so a developer's own dockerd is left alone.
set -euo pipefail
source "$(dirname "$0")/stop-dockerd.sh"
state=${GLB_STATE_DIR:-/var/run/gnes-latency-bench}
pidfile=$state/dockerd.pid
log=${GLB_DOCKERD_LOG:-/var/log/gnes-latency-bench-dockerd.log}

answers() { timeout 5 docker version --format '{{.Server.Version}}' >/dev/null 2>&1; }

case ${1:-} in
  start)
    if answers; then
      echo "docker daemon already answers; not starting one"
      exit 0
    fi
    mkdir -p "$state"
    echo "starting dockerd (log: $log)"
    setsid dockerd --pidfile "$pidfile.dockerd" >"$log" 2>&1 </dev/null &
    echo $! >"$pidfile"
    for _ in $(seq 1 60); do
      if answers; then
        echo "dockerd $(docker version --format '{{.Server.Version}}') is up (pid $(cat "$pidfile"))"
        exit 0
      fi
      if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then break; fi
      sleep 1
    done
    echo "dockerd did not come up; last log lines:" >&2
    tail -n 20 "$log" >&2
    exit 1
    ;;
  stop)
    if [[ ! -f "$pidfile" ]]; then
      echo "no dockerd started by docker-daemon.sh; nothing to stop"
      exit 0
    fi
    pid=$(cat "$pidfile")
    if stop_dockerd "$pid"; then echo "stopped dockerd (pid $pid)"; fi
    rm -f "$pidfile"
    ;;
  *)
    echo "usage: $0 start|stop" >&2
    exit 2
    ;;
esac
