/**
 * N writers recording at once, each a separate process on the action's recording path (one suite
 * result of 4 entries, the real render, the default retry settings), onto one bare remote that
 * already holds a history. Prints per writer its wall time and attempts, and checks that every
 * entry is present exactly once and the final README lists the newest ones.
 * Run: npm run bench:writers -- [writers=32] [entries=2000] [retry]
 *
 * With `retry`, the remote refuses pending refs (an update hook), so writers cannot park their
 * entries and land by retrying alone: the design without group commit, measured for comparison.
 */
import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { appendToBranch } from '../src/history/branch-store'
import { entriesFromResult } from '../src/history/from-result'
import { readHistory } from '../src/history/read'
import { appendEntries, renderHook } from '../src/pipeline'
import { load, result, secs, sh } from './history-fixtures'

const MAX_ENTRIES = 50
const render = () => renderHook({ template: null, maxEntries: MAX_ENTRIES })

/** One writer: `node <this> writer <remote> <work-dir> <start ms>`; prints its outcome as JSON. */
async function writer([repo, workDir, at]: string[]): Promise<void> {
  const t0 = performance.now()
  const entries = entriesFromResult(result(new Date(Number(at))))
  const log: string[] = []
  const out = await appendEntries(
    entries,
    { kind: 'branch', repo, branch: 'gh-pages', dir: 'benchmarks' },
    render(),
    {
      info: line => log.push(line),
      warn: line => log.push(`WARNING: ${line}`),
      group: (_name, work) => work()
    }
  )
  // appendEntries keeps the clone in a temporary directory; the writer's own is for its output.
  fs.rmSync(workDir, { recursive: true, force: true })
  console.log(
    JSON.stringify({
      seconds: (performance.now() - t0) / 1000,
      added: out.added,
      sha: entries[0].commit.sha,
      attempts: log.filter(l => / rejected at attempt /.test(l)).length + 1,
      parked: log.some(l => /^history: parked /.test(l)),
      foldedByOther: log.some(l => /folded into .* by another writer/.test(l)),
      log
    })
  )
}

function spawnWriter(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise(resolve => {
    const child = spawn(process.execPath, [process.argv[1], 'writer', ...args], {
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let out = ''
    let err = ''
    child.stdout.on('data', d => (out += d))
    child.stderr.on('data', d => (err += d))
    child.on('close', code => resolve({ code, out, err }))
  })
}

async function main(): Promise<void> {
  const writers = Number(process.argv[2] ?? 32)
  const seedEntries = Number(process.argv[3] ?? 2000)
  const retryOnly = process.argv[4] === 'retry'
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'history-writers-'))
  try {
    console.log(load())
    const bare = path.join(tmp, 'remote.git')
    sh(tmp, 'init', '-q', '--bare', bare)
    sh(bare, 'config', 'uploadpack.allowFilter', 'true')
    if (retryOnly) {
      fs.writeFileSync(
        path.join(bare, 'hooks', 'update'),
        '#!/bin/sh\ncase "$1" in refs/gnes-bench/*) echo "no pending refs here" >&2; exit 1;; esac\n',
        { mode: 0o755 }
      )
    }
    const start = Date.UTC(2024, 0, 1)
    const seed = Array.from({ length: Math.ceil(seedEntries / 4) }, (_, i) =>
      entriesFromResult(result(new Date(start + i * 6 * 3600_000))).map(e => ({
        ...e,
        samples: null,
        runs: []
      }))
    ).flat()
    await appendToBranch({
      repo: bare,
      branch: 'gh-pages',
      dir: 'benchmarks',
      entries: seed,
      render: render()
    })
    console.log(
      `seeded ${seed.length} entries; starting ${writers} writers at once` +
        (retryOnly ? ' (the remote refuses pending refs: retries only)' : '')
    )

    const t0 = performance.now()
    const end = start + (seed.length / 4) * 6 * 3600_000
    const outcomes = await Promise.all(
      Array.from({ length: writers }, (_, i) =>
        spawnWriter([bare, path.join(tmp, `w${i}`), String(end + (i + 1) * 60_000)])
      )
    )
    const wall = secs(t0)
    const failed = outcomes.filter(o => o.code !== 0)
    for (const f of failed) console.log(`writer failed: ${f.err.trim().split('\n').pop()}`)
    const done = outcomes
      .filter(o => o.code === 0)
      .map(
        o =>
          JSON.parse(o.out) as {
            seconds: number
            added: string[]
            attempts: number
            sha: string
            parked: boolean
            foldedByOther: boolean
          }
      )
    const times = done.map(d => d.seconds).sort((a, b) => a - b)
    const attempts = done.map(d => d.attempts).sort((a, b) => a - b)
    console.log(
      `${done.length} of ${writers} writers landed in ${wall}; per writer: ` +
        `time min ${times[0]?.toFixed(1)} s, median ${times[Math.floor(times.length / 2)]?.toFixed(1)} s, max ${times.at(-1)?.toFixed(1)} s; ` +
        `attempts min ${attempts[0]}, median ${attempts[Math.floor(attempts.length / 2)]}, max ${attempts.at(-1)}`
    )
    console.log(
      `per writer (seconds/attempts): ${done.map(d => `${d.seconds.toFixed(1)}/${d.attempts}`).join(' ')}`
    )
    console.log(
      `${done.filter(d => d.parked).length} writers parked their entries on a pending ref; ` +
        `${done.filter(d => d.foldedByOther).length} saw them folded by another writer`
    )
    const check = path.join(tmp, 'check')
    sh(tmp, 'clone', '-q', '-b', 'gh-pages', bare, check)
    const ids = readHistory(path.join(check, 'benchmarks')).map(e => e.id)
    const added = done.flatMap(d => d.added)
    const unique = new Set(ids)
    const subjects = sh(bare, 'log', '--format=%s', 'gh-pages').trim().split('\n')
    const pending = sh(bare, 'for-each-ref', 'refs/gnes-bench').trim().split('\n').filter(Boolean)
    console.log(
      `history: ${ids.length} entries, ${unique.size} distinct; ${added.length} reported added, ` +
        `${added.filter(id => unique.has(id)).length} of them present; ` +
        `${subjects.length} commits, ${subjects.filter(s => s.startsWith('history: add')).length - 1} adding writers' entries; ` +
        `${pending.length} pending refs left`
    )
    const readme = fs.readFileSync(path.join(check, 'benchmarks', 'README.md'), 'utf8')
    // The last writer rendered: the README shows every writer's commit, up to max-entries (the
    // writers' entries are the newest of each case).
    const shown = done.filter(d => readme.includes(d.sha.slice(0, 7))).length
    console.log(
      `README shows the commits of ${shown} of ${done.length} writers (at most ${MAX_ENTRIES}: max-entries)`
    )
    console.log(load())
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

if (process.argv[2] === 'writer') {
  writer(process.argv.slice(3)).catch(err => {
    console.error(err)
    process.exit(1)
  })
} else {
  main().catch(err => {
    console.error(err)
    process.exit(1)
  })
}
