import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { serviceCommands, startOrder } from '../src/topology/commands'
import {
  loadTopologyFile,
  parseTopology,
  resolveTopology,
  TopologyError
} from '../src/topology/load'
import type { GnesTopology } from '../src/topology/schema'

/** The ports and host placeholders of the command lines in design.md. */
const designPorts: Record<string, number> = {
  'Frontend:out': 53463,
  'Frontend:in': 57908,
  'Router1:out': 57909,
  'Router2:in': 57909
}
const designAddressing = {
  host: (s: string) => `<${s.toLowerCase()}>`,
  port: (s: string, side: 'in' | 'out') => designPorts[`${s}:${side}`],
  grpcPort: 5566,
  dumpPath: '<file>'
}
const case1 = fs.readFileSync(path.join(__dirname, '..', 'topologies', 'case1.yml'), 'utf8')
const line = (argv: string[]) => argv.map(a => (a.includes(' ') ? `"${a}"` : a)).join(' ')
const gnesTopology = (id: string): GnesTopology => {
  const t = resolveTopology(id).topology
  if (t.kind !== 'gnes') throw new Error(`${id} is not a GNES topology`)
  return t
}
const commandsOf = (id: string) =>
  serviceCommands(gnesTopology(id), designAddressing).map(c => `${c.instance}: ${line(c.argv)}`)

const FRONTEND =
  'Frontend-0: frontend --grpc_port 5566 --port_out 53463 --socket_out PUSH_BIND --port_in 57908 --socket_in PULL_BIND --dump_route <file>'
const R1_CHAIN =
  'route --port_in 53463 --socket_in PULL_CONNECT --host_in <frontend> --port_out 57909 --socket_out PUSH_BIND --yaml_path BaseRouter'
const R2_CHAIN = (model: string) =>
  `route --port_in 57909 --socket_in PULL_CONNECT --host_in <router1> --port_out 57908 --socket_out PUSH_CONNECT --host_out <frontend> --yaml_path ${model}`
const R1_PAR = (model: string) =>
  `route --port_in 53463 --socket_in PULL_CONNECT --host_in <frontend> --port_out 57909 --socket_out PUSH_CONNECT --host_out <router2> --yaml_path ${model}`
const R2_REDUCE =
  'Router2-0: route --port_in 57909 --socket_in PULL_BIND --port_out 57908 --socket_out PUSH_CONNECT --host_out <frontend> --yaml_path "!BaseReduceRouter {parameters: {num_part: 2}}"'
const BLOCK = '"!BlockRouter {parameters: {sleep_sec: 1}}"'

describe('the four standard cases reproduce design.md’s command lines', () => {
  it('case 1 non-blocking', () => {
    expect(commandsOf('1')).toEqual([
      FRONTEND,
      `Router1-0: ${R1_CHAIN}`,
      `Router2-0: ${R2_CHAIN('BaseRouter')}`
    ])
  })
  it('case 2 blocking', () => {
    expect(commandsOf('2')).toEqual([
      FRONTEND,
      `Router1-0: ${R1_CHAIN}`,
      `Router2-0: ${R2_CHAIN(BLOCK)}`
    ])
  })
  it('case 3 parallel non-blocking: two replicas and the (quirky) reduce router', () => {
    expect(commandsOf('3')).toEqual([
      FRONTEND,
      `Router1-0: ${R1_PAR('BaseRouter')}`,
      `Router1-1: ${R1_PAR('BaseRouter')}`,
      R2_REDUCE
    ])
    expect(resolveTopology('3').topology.notes).toMatch(/num_part: 2.*swallows|swallows.*num_part/s)
  })
  it('case 4 parallel blocking', () => {
    expect(commandsOf('4')).toEqual([
      FRONTEND,
      `Router1-0: ${R1_PAR(BLOCK)}`,
      `Router1-1: ${R1_PAR(BLOCK)}`,
      R2_REDUCE
    ])
  })
})

describe('start order: a service after the peers it connects to, in waves', () => {
  const waves = (id: string) =>
    startOrder(gnesTopology(id), designAddressing).map(w => w.map(g => g.map(c => c.instance)))
  it('case 1 is a chain: one service per wave', () => {
    expect(waves('1')).toEqual([[['Frontend-0']], [['Router1-0']], [['Router2-0']]])
  })
  it('case 3: the replicas of Router1 start together, after the peers they dial', () => {
    expect(waves('3')).toEqual([[['Frontend-0']], [['Router2-0']], [['Router1-0', 'Router1-1']]])
  })
})

describe('topology files: errors name the file, the path inside it and the rule', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'topology-'))
  const write = (name: string, text: string) => {
    const file = path.join(dir, name)
    fs.writeFileSync(file, text)
    return file
  }
  const base = fs.readFileSync(resolveTopology('1').file, 'utf8')

  it('reports a wrong type deep inside', () => {
    const file = write(
      'replicas.yml',
      base.replace(
        'model: BaseRouter\n    in: { socket: PULL_CONNECT, peer: Frontend }',
        'model: BaseRouter\n    replicas: two\n    in: { socket: PULL_CONNECT, peer: Frontend }'
      )
    )
    expect(() => loadTopologyFile(file)).toThrow(TopologyError)
    expect(() => loadTopologyFile(file)).toThrow(
      new RegExp(`${file}: invalid topology:\\n  at services.1.replicas: Expected number`)
    )
  })
  it('reports an unknown peer and an unknown key', () => {
    expect(() => parseTopology(base.replace('peer: Router1', 'peer: Router9'), 'x.yml')).toThrow(
      /x.yml: invalid topology:\n {2}at services.2.in.peer: no service named 'Router9'/
    )
    expect(() =>
      parseTopology(base.replace('role: frontend', 'role: frontend\n    colour: red'), 'x.yml')
    ).toThrow(/at services.0: Unrecognized key\(s\) in object: 'colour'/)
  })
  it('refuses replicas that would BIND one port, and a peer that does not bind', () => {
    expect(() =>
      parseTopology(
        base.replace(
          'model: BaseRouter\n    in: { socket: PULL_CONNECT, peer: Frontend }',
          'model: BaseRouter\n    replicas: 2\n    in: { socket: PULL_CONNECT, peer: Frontend }'
        ),
        'r.yml'
      )
    ).toThrow(/at services.1.out: replicas > 1 cannot BIND one port/)
    expect(() =>
      parseTopology(
        base.replace('out: { socket: PUSH_BIND }', 'out: { socket: PUSH_CONNECT, peer: Router2 }'),
        'p.yml'
      )
    ).toThrow(/'Router1' must BIND its out socket|'Router2' must BIND its in socket/)
  })
  it('reports bad YAML and a missing file', () => {
    expect(() => parseTopology('services: [', 'bad.yml')).toThrow(/bad.yml: not valid YAML/)
    expect(() => loadTopologyFile(path.join(dir, 'nope.yml'))).toThrow(
      /nope.yml: cannot read topology file/
    )
    expect(() => resolveTopology('7')).toThrow(/case '7' is not a standard case/)
  })
  it('knows GNES router classes and checks the parameters of a YAML tag', () => {
    const withModel = (model: string) =>
      case1.replace('model: BaseRouter', `model: ${JSON.stringify(model)}`)
    for (const ok of [
      'BaseRouter',
      '!BlockRouter {parameters: {sleep_sec: 0.5}}',
      '!PublishRouter'
    ]) {
      expect(parseTopology(withModel(ok), 'ok.yml').services[1]).toMatchObject({ model: ok })
    }
    const bad: [string, RegExp][] = [
      ['BaseRuoter', /unknown router class 'BaseRuoter' \(known: BaseRouter, /],
      [
        '!BlockRouter {parameters: {sleep_sec: [1}}',
        /the parameters of BlockRouter are not valid YAML/
      ],
      [
        '!BlockRouter {sleep_sec: 1}',
        /the parameters of BlockRouter may only hold parameters and gnes_config, got sleep_sec/
      ],
      [
        'BlockRouter {parameters: {}}',
        /a router class \(BaseRouter\) or a YAML tag with parameters/
      ],
      ['/etc/passwd', /a router class \(BaseRouter\) or a YAML tag with parameters/]
    ]
    for (const [model, message] of bad) {
      expect(() => parseTopology(withModel(model), 'm.yml')).toThrow(
        new RegExp(`^m\\.yml: invalid topology:\n  at services\\.1\\.model: ${message.source}`)
      )
    }
  })
})
