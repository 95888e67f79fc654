/**
 * What the benchmark does with each key of a Compose service (docs/topology.md shows this table):
 * `honoured` keys are translated to the native topology; `ignored` ones change nothing that is
 * measured; a `refused` key stops the run before anything starts, with its reason.
 * A key missing here is refused too, so a new key of the specification is never silently dropped.
 */
export type Decision = 'honoured' | 'ignored' | { refused: string }

const NO_FIELD = 'the benchmark cannot give a container this setting, and it changes what runs'
const HOST = 'it reaches into the host, so runs would not be comparable and the host not safe'
const LIMITS = 'only deploy.resources.limits (cpus, memory), cpus and mem_limit set resources'

export const SERVICE_KEYS: Record<string, Decision> = {
  build: 'honoured',
  command: 'honoured',
  cpus: 'honoured',
  depends_on: 'honoured',
  deploy: 'honoured',
  entrypoint: 'honoured',
  env_file: 'honoured',
  environment: 'honoured',
  expose: 'honoured',
  healthcheck: 'honoured',
  image: 'honoured',
  mem_limit: 'honoured',
  networks: 'honoured',
  ports: 'honoured',
  profiles: 'honoured',
  scale: 'honoured',
  annotations: 'ignored',
  attach: 'ignored',
  container_name: 'ignored',
  develop: 'ignored',
  domainname: 'ignored',
  hostname: 'ignored',
  init: 'ignored',
  label_file: 'ignored',
  labels: 'ignored',
  logging: 'ignored',
  mac_address: 'ignored',
  oom_kill_disable: 'ignored',
  oom_score_adj: 'ignored',
  pull_policy: 'ignored',
  pull_refresh_after: 'ignored',
  read_only: 'ignored',
  restart: 'ignored',
  stdin_open: 'ignored',
  stop_grace_period: 'ignored',
  stop_signal: 'ignored',
  tty: 'ignored',
  blkio_config: { refused: LIMITS },
  cap_add: { refused: HOST },
  cap_drop: { refused: NO_FIELD },
  cgroup: { refused: HOST },
  cgroup_parent: { refused: HOST },
  configs: { refused: 'configs are not supported: bake the file into the image' },
  cpu_count: { refused: LIMITS },
  cpu_percent: { refused: LIMITS },
  cpu_period: { refused: LIMITS },
  cpu_quota: { refused: LIMITS },
  cpu_rt_period: { refused: LIMITS },
  cpu_rt_runtime: { refused: LIMITS },
  cpu_shares: { refused: LIMITS },
  cpuset: { refused: LIMITS },
  credential_spec: { refused: NO_FIELD },
  device_cgroup_rules: { refused: HOST },
  devices: { refused: HOST },
  dns: { refused: NO_FIELD },
  dns_opt: { refused: NO_FIELD },
  dns_search: { refused: NO_FIELD },
  external_links: { refused: 'services reach each other by name on the topology network' },
  extends: { refused: 'extends is not supported: write the service out, or merge files' },
  extra_hosts: { refused: NO_FIELD },
  gpus: { refused: HOST },
  group_add: { refused: NO_FIELD },
  ipc: { refused: HOST },
  isolation: { refused: NO_FIELD },
  links: { refused: 'services reach each other by name, or by networks aliases' },
  mem_reservation: { refused: LIMITS },
  mem_swappiness: { refused: LIMITS },
  memswap_limit: { refused: LIMITS },
  models: { refused: NO_FIELD },
  network_mode: { refused: 'every service joins the topology network' },
  pid: { refused: HOST },
  pids_limit: { refused: LIMITS },
  platform: { refused: NO_FIELD },
  post_start: { refused: NO_FIELD },
  pre_stop: { refused: NO_FIELD },
  privileged: { refused: HOST },
  provider: { refused: NO_FIELD },
  runtime: { refused: NO_FIELD },
  secrets: { refused: 'secrets are not supported: a benchmark runs without them' },
  security_opt: { refused: HOST },
  shm_size: { refused: NO_FIELD },
  storage_opt: { refused: NO_FIELD },
  sysctls: { refused: NO_FIELD },
  tmpfs: { refused: NO_FIELD },
  ulimits: { refused: NO_FIELD },
  use_api_socket: { refused: HOST },
  user: { refused: NO_FIELD },
  userns_mode: { refused: HOST },
  uts: { refused: HOST },
  volumes: {
    refused:
      'volumes are not supported: a bind mount reaches into the host, and a named volume would carry state from one run (or from the base) into the next'
  },
  volumes_from: { refused: 'volumes are not supported' },
  working_dir: { refused: NO_FIELD }
}

/** Top-level keys; `x-*` extensions other than x-latency-bench are ignored, as Compose does. */
export const TOP_KEYS: Record<string, Decision> = {
  services: 'honoured',
  name: 'honoured',
  version: 'ignored',
  networks: 'ignored',
  volumes: 'ignored',
  include: { refused: 'include is not supported: list the files to merge instead' },
  secrets: { refused: 'secrets are not supported: a benchmark runs without them' },
  configs: { refused: 'configs are not supported: bake the file into the image' },
  models: { refused: NO_FIELD }
}

/** Keys of `deploy`, `build` and a service's `networks` entries, decided the same way. */
export const NESTED_KEYS: Record<string, Record<string, Decision>> = {
  deploy: {
    mode: 'honoured',
    replicas: 'honoured',
    resources: 'honoured',
    placement: 'honoured',
    endpoint_mode: 'honoured',
    labels: 'ignored',
    restart_policy: 'ignored',
    rollback_config: 'ignored',
    update_config: 'ignored'
  },
  'deploy.resources': { limits: 'honoured', reservations: 'ignored' },
  'deploy.resources.limits': { cpus: 'honoured', memory: 'honoured', pids: { refused: LIMITS } },
  'deploy.placement': {
    constraints: 'honoured',
    preferences: { refused: 'only placement constraints are honoured' },
    max_replicas_per_node: { refused: 'only placement constraints are honoured' }
  },
  build: {
    context: 'honoured',
    dockerfile: 'honoured',
    args: 'honoured',
    target: 'honoured',
    cache_from: 'ignored',
    cache_to: 'ignored',
    labels: 'ignored',
    no_cache: 'ignored',
    pull: 'ignored',
    tags: 'ignored'
  },
  network: {
    aliases: 'honoured',
    priority: 'ignored',
    gw_priority: 'ignored',
    interface_name: 'ignored'
  }
}
