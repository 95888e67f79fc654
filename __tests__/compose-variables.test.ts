import { parseDotenv } from '../src/topology/compose/dotenv'
import { durationSec } from '../src/topology/compose/duration'
import { interpolate, InterpolationError } from '../src/topology/compose/interpolate'
import { shellWords } from '../src/topology/compose/shell-words'

const vars: Record<string, string> = { SET: 'value', EMPTY: '', PORT: '8080' }
const lookup = (n: string) => vars[n]
const noneUnset = () => {
  throw new Error('no variable should read as blank here')
}

/** `text` interpolated, and the variables it read as blank strings. */
function withBlanks(text: string): [string, string[]] {
  const blanks: string[] = []
  return [interpolate(text, lookup, n => blanks.push(n)), blanks]
}

describe("Compose's interpolation", () => {
  test.each([
    ['${SET}', 'value'],
    ['$SET/x', 'value/x'],
    ['a${SET}b$PORT', 'avalueb8080'],
    ['${UNSET:-fallback}', 'fallback'],
    ['${EMPTY:-fallback}', 'fallback'],
    ['${EMPTY-fallback}', ''],
    ['${SET:-fallback}', 'value'],
    ['${UNSET-}', ''],
    ['${UNSET:-${PORT}}', '8080'],
    ['${UNSET:-${ALSO_UNSET:-deep}}', 'deep'],
    ['${SET:+alt}', 'alt'],
    ['${EMPTY:+alt}', ''],
    ['${EMPTY+alt}', 'alt'],
    ['${UNSET+alt}', ''],
    ['${EMPTY?err}', ''],
    ['$$SET costs $$5', '$SET costs $5'],
    ['no variables', 'no variables'],
    // A $ before neither a name, { nor $ stays as it is, as compose-go leaves it.
    ['cost $5', 'cost $5'],
    ['PRICE=5$', 'PRICE=5$'],
    ['a $ string', 'a $ string'],
    ['^REGEX$', '^REGEX$'],
    ['$}', '$}'],
    ['$', '$'],
    ['${UNSET:-5$}', '5$'],
    ['$-$SET', '$-value']
  ])('%s → %s', (text, want) => {
    expect(interpolate(text, lookup, noneUnset)).toBe(want)
  })

  test.each([
    ['${UNSET}', '', ['UNSET']],
    ['$UNSET', '', ['UNSET']],
    ['a${UNSET}b$UNSET/${OTHER}', 'ab/', ['UNSET', 'UNSET', 'OTHER']],
    ['${UNSET:-${ALSO_UNSET}}', '', ['ALSO_UNSET']],
    ['${SET:+${UNSET}}', '', ['UNSET']],
    ['${EMPTY}', '', []]
  ])(
    '%s reads an unset variable as a blank string, as Compose does, and says so',
    (text, want, blanks) => {
      expect(withBlanks(text)).toEqual([want, blanks])
    }
  )

  test.each([
    ['${UNSET:?give a port}', 'variable UNSET is unset: give a port'],
    ['${EMPTY:?must not be empty}', 'variable EMPTY is empty: must not be empty'],
    ['${UNSET?}', 'variable UNSET is unset: required'],
    ['${SET', 'unclosed ${'],
    ['${1X}', 'invalid variable reference'],
    ['${SET%x}', 'invalid variable reference'],
    ['${}', 'invalid variable reference'],
    ['${ SET}', 'invalid variable reference']
  ])('%s is refused: %s', (text, why) => {
    expect(() => interpolate(text, lookup, noneUnset)).toThrow(InterpolationError)
    expect(() => interpolate(text, lookup, noneUnset)).toThrow(why)
  })
})

describe('.env and env_file syntax', () => {
  test('comments, export, quotes, escapes, references and names without values', () => {
    const text = [
      '# a comment',
      '',
      'export A=1',
      'B = two words  # trailing comment',
      "C='literal ${A} \\n'",
      'D="quoted ${A}\\nnext \\"q\\""',
      'E=${A}${FROM_OUTER}',
      'F="spans',
      'two lines"',
      'FROM_OUTER',
      'NOT_IN_OUTER',
      'G=a#b'
    ].join('\n')
    const outer = (n: string) => ({ FROM_OUTER: 'outer' })[n]
    expect(parseDotenv(text, outer, noneUnset)).toEqual({
      A: '1',
      B: 'two words',
      C: 'literal ${A} \\n',
      D: 'quoted 1\nnext "q"',
      E: '1outer',
      F: 'spans\ntwo lines',
      FROM_OUTER: 'outer',
      G: 'a#b'
    })
  })

  test('refuses what is not KEY=VALUE, unclosed quotes and required references', () => {
    const none = () => undefined
    expect(() => parseDotenv('not a line', none, noneUnset)).toThrow('line 1: not KEY=VALUE')
    expect(() => parseDotenv('A="open', none, noneUnset)).toThrow('unclosed " in A')
    expect(() => parseDotenv('A=${NOPE?}', none, noneUnset)).toThrow('variable NOPE is unset')
  })

  test('an unset reference reads as a blank string, and says so', () => {
    const blanks: string[] = []
    expect(
      parseDotenv(
        'A=x${NOPE}y\nB="$NOPE"',
        () => undefined,
        n => blanks.push(n)
      )
    ).toEqual({
      A: 'xy',
      B: ''
    })
    expect(blanks).toEqual(['NOPE', 'NOPE'])
  })
})

describe('command strings split as Compose splits them', () => {
  test.each([
    ['caddy run --config /etc/Caddyfile', ['caddy', 'run', '--config', '/etc/Caddyfile']],
    ['  spaced   out ', ['spaced', 'out']],
    [`sh -c 'echo "$HOME" | cat'`, ['sh', '-c', 'echo "$HOME" | cat']],
    [`echo "a \\"b\\" c" d\\ e`, ['echo', 'a "b" c', 'd e']],
    [`x '' ""`, ['x', '', '']],
    ['a&&b', ['a&&b']]
  ])('%s', (line, argv) => {
    expect(shellWords(line)).toEqual(argv)
  })

  test('an unclosed quote is an error', () => {
    expect(() => shellWords(`echo 'open`)).toThrow("unclosed '")
    expect(() => shellWords('echo "open')).toThrow('unclosed "')
  })
})

describe('Compose durations', () => {
  test.each([
    ['1m30s', 90],
    ['500ms', 0.5],
    ['2.5s', 2.5],
    ['1h', 3600],
    ['10us', 1e-5],
    ['0', 0],
    ['0s', 0]
  ])('%s is %d s', (text, seconds) => {
    expect(durationSec(text)).toBeCloseTo(seconds, 9)
  })

  test.each(['10', '1 m', 'm', '1d', '-1s', ''])('%s is not a duration', text => {
    expect(durationSec(text)).toBeNaN()
  })
})
