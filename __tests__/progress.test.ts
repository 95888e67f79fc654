/** Terminal progress: every group says when it started and how long it took. */
import { consoleLog } from '../src/log'
import { fmtDuration } from '../src/text/duration'
import { DURATION, re } from './helpers/figures'

test('a wall time reads as seconds, minutes or hours', () => {
  expect(fmtDuration(0.4)).toBe('0 s')
  expect(fmtDuration(42)).toBe('42 s')
  expect(fmtDuration(89.4)).toBe('89 s')
  expect(fmtDuration(89.6)).toBe('1 min 30 s')
  expect(fmtDuration(185)).toBe('3 min 05 s')
  expect(fmtDuration(3725)).toBe('1 h 02 min')
  expect(fmtDuration(-3)).toBe('0 s')
})

test('a group on the terminal says when it started and how long it took', async () => {
  const lines: string[] = []
  const spy = jest.spyOn(console, 'log').mockImplementation(m => void lines.push(String(m)))
  try {
    const value = await consoleLog.group('Case 1: non-blocking', async () => {
      consoleLog.info('run 1/3')
      return 7
    })
    expect(value).toBe(7)
  } finally {
    spy.mockRestore()
  }
  expect(lines[0]).toMatch(re`^\n== Case 1: non-blocking \[${DURATION} in\]$`)
  expect(lines[1]).toBe('run 1/3')
  expect(lines[2]).toMatch(re`^ {3}\(${DURATION}\)$`)
})
