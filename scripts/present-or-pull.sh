# Sourced by the stand-in scripts: the real image wins wherever there is one.
# present_or_pulled TAG [TRAITS]: true when TAG is on the daemon already or a registry gives it.
# With TRAITS (the revision of a stand-in's traits), an image made here (no registry digest)
# whose io.gnes-latency-bench.stand-in.traits label differs is out of date: false, to remake it.
present_or_pulled() {
  local traits=${2:-} have
  if docker image inspect "$1" >/dev/null 2>&1; then
    have=$(docker image inspect -f '{{len .RepoDigests}} {{index .Config.Labels "io.gnes-latency-bench.stand-in.traits"}}' "$1")
    if [[ -n $traits && $have == "0 "* && $have != "0 $traits" ]]; then
      echo "the stand-in for $1 lacks traits of revision $traits: remaking it"
      return 1
    fi
    echo "base image $1 is present"
  elif timeout 120 docker pull -q "$1" >/dev/null 2>&1; then
    echo "pulled $1"
  else
    return 1
  fi
}
