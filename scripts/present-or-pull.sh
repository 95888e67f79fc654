# Sourced by the stand-in scripts: the real image wins wherever there is one.
# present_or_pulled TAG: true when TAG is on the daemon already or a registry gives it.
present_or_pulled() {
  if docker image inspect "$1" >/dev/null 2>&1; then
    echo "base image $1 is present"
  elif timeout 120 docker pull -q "$1" >/dev/null 2>&1; then
    echo "pulled $1"
  else
    return 1
  fi
}
