/**
 * What the benchmark does with each key of a Compose service (docs/topology.md shows this table):
 * `honoured` keys are translated to the native topology; `ignored` ones change nothing that is
 * measured; a `refused` key stops the run before anything starts, with its reason.
 * A key missing here is refused too, so a new key of the specification is never silently dropped.
 */
export type Decision = 'honoured' | 'ignored' | { refused: string }

/**
 * What to write instead of a key the benchmark cannot run: drop `what` (the key's setting) with
 * `key: !reset empty` in the file with x-latency-bench, as every refusal of a key words it.
 */
export const resetAdvice = (key: string, empty = 'null', what = 'it'): string =>
  `remove ${what} for the benchmark (\`${key}: !reset ${empty}\` in the file with x-latency-bench)`

/** A refusal that says what to write instead: drop the key in the file with x-latency-bench. */
const drop = (why: string, key: string, empty = 'null'): { refused: string } => ({
  refused: `${why}: ${resetAdvice(key, empty)}`
})
const NO_FIELD = 'the benchmark cannot give a container this setting, and it changes what runs'
const HOST = 'it reaches into the host, so runs would not be comparable and the host not safe'
const ADDRESS =
  "addresses are the deployment network's: peers reach a service by its name or aliases"
const LIMITS =
  'only deploy.resources.limits (cpus, memory, pids), cpus, mem_limit and pids_limit set resources'

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
  stop_signal: 'honoured',
  tty: 'ignored',
  blkio_config: drop(LIMITS, 'blkio_config', 'null'),
  cap_add: drop(HOST, 'cap_add', '[]'),
  cap_drop: 'honoured',
  cgroup: drop(HOST, 'cgroup', 'null'),
  cgroup_parent: drop(HOST, 'cgroup_parent', 'null'),
  configs: 'honoured',
  cpu_count: drop(LIMITS, 'cpu_count', 'null'),
  cpu_percent: drop(LIMITS, 'cpu_percent', 'null'),
  cpu_period: drop(LIMITS, 'cpu_period', 'null'),
  cpu_quota: drop(LIMITS, 'cpu_quota', 'null'),
  cpu_rt_period: drop(LIMITS, 'cpu_rt_period', 'null'),
  cpu_rt_runtime: drop(LIMITS, 'cpu_rt_runtime', 'null'),
  cpu_shares: drop(LIMITS, 'cpu_shares', 'null'),
  cpuset: drop(LIMITS, 'cpuset', 'null'),
  credential_spec: drop(NO_FIELD, 'credential_spec', 'null'),
  device_cgroup_rules: drop(HOST, 'device_cgroup_rules', '[]'),
  devices: drop(HOST, 'devices', '[]'),
  dns: drop(NO_FIELD, 'dns', '[]'),
  dns_opt: drop(NO_FIELD, 'dns_opt', '[]'),
  dns_search: drop(NO_FIELD, 'dns_search', '[]'),
  external_links: drop(
    'services reach each other by name on the topology network',
    'external_links',
    '[]'
  ),
  extends: {
    refused: 'extends is not supported: write the service out, or list both files joined with +'
  },
  extra_hosts: 'honoured',
  gpus: drop(HOST, 'gpus', '[]'),
  group_add: drop(NO_FIELD, 'group_add', '[]'),
  ipc: drop(HOST, 'ipc', 'null'),
  isolation: drop(NO_FIELD, 'isolation', 'null'),
  links: 'honoured',
  mem_reservation: drop(LIMITS, 'mem_reservation', 'null'),
  mem_swappiness: drop(LIMITS, 'mem_swappiness', 'null'),
  memswap_limit: drop(LIMITS, 'memswap_limit', 'null'),
  models: drop(NO_FIELD, 'models', 'null'),
  network_mode: drop(
    'every service joins the topology network, and peers reach it by its name',
    'network_mode'
  ),
  pid: drop(HOST, 'pid', 'null'),
  pids_limit: 'honoured',
  platform: 'honoured',
  post_start: drop(NO_FIELD, 'post_start', 'null'),
  pre_stop: drop(NO_FIELD, 'pre_stop', 'null'),
  privileged: drop(HOST, 'privileged', 'null'),
  provider: drop(NO_FIELD, 'provider', 'null'),
  runtime: 'honoured',
  secrets: 'honoured',
  security_opt: 'honoured',
  shm_size: 'honoured',
  storage_opt: drop(NO_FIELD, 'storage_opt', 'null'),
  sysctls: drop(NO_FIELD, 'sysctls', '{}'),
  tmpfs: 'honoured',
  ulimits: 'honoured',
  use_api_socket: drop(HOST, 'use_api_socket', 'null'),
  user: 'honoured',
  userns_mode: drop(HOST, 'userns_mode', 'null'),
  uts: drop(HOST, 'uts', 'null'),
  volumes: 'honoured',
  volumes_from: drop(
    'a service shares files through a named volume both mount',
    'volumes_from',
    '[]'
  ),
  working_dir: 'honoured'
}

/** Top-level keys; `x-*` extensions other than x-latency-bench are ignored, as Compose does. */
export const TOP_KEYS: Record<string, Decision> = {
  services: 'honoured',
  name: 'honoured',
  version: 'ignored',
  networks: 'ignored',
  volumes: 'honoured',
  include: {
    refused: 'include is not supported: list the files to merge, joined with + (a.yaml+b.yaml)'
  },
  secrets: 'honoured',
  configs: 'honoured',
  models: drop(NO_FIELD, 'models')
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
  'deploy.resources.limits': { cpus: 'honoured', memory: 'honoured', pids: 'honoured' },
  'deploy.placement': {
    constraints: 'honoured',
    preferences: drop('only placement constraints are honoured', 'preferences', '[]'),
    max_replicas_per_node: drop('only placement constraints are honoured', 'max_replicas_per_node')
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
    ipv4_address: drop(ADDRESS, 'ipv4_address'),
    ipv6_address: drop(ADDRESS, 'ipv6_address'),
    link_local_ips: drop(ADDRESS, 'link_local_ips', '[]'),
    mac_address: 'ignored',
    priority: 'ignored',
    gw_priority: 'ignored',
    interface_name: 'ignored'
  }
}
