import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { tmp } from './tmp'

/**
 * PyPI's sdist of GNES `version`, from the simple index (what pip reads; the only API this
 * machine's registry serves), checked against the index's sha256 and kept in the engine's cache.
 */
async function sdist(version: string): Promise<string> {
  const cache =
    process.env.GNES_BENCH_CACHE ?? path.join(os.homedir(), '.cache', 'gnes-latency-bench')
  const file = path.join(cache, 'sdists', `gnes-${version}.tar.gz`)
  if (fs.existsSync(file)) return file
  const index = await (await fetch('https://pypi.org/simple/gnes/')).text()
  const name = `gnes-${version}.tar.gz`.replace(/\./g, '\\.')
  const link = new RegExp(`href="([^"]+/${name})#sha256=([0-9a-f]{64})"`).exec(index)
  if (!link) throw new Error(`PyPI's simple index lists no sdist of GNES ${version}`)
  const body = Buffer.from(await (await fetch(link[1])).arrayBuffer())
  if (createHash('sha256').update(body).digest('hex') !== link[2]) {
    throw new Error(`gnes-${version}.tar.gz from PyPI does not match the index's sha256`)
  }
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(`${file}.part`, body)
  fs.renameSync(`${file}.part`, file)
  return file
}

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-C', dir, ...args], { encoding: 'utf8' }).trim()

/**
 * A GNES repository as a pull request's workspace: one commit per release, each the release's
 * source tree from PyPI, the newest checked out. Returns the repository and the commits in order.
 * Each tree also holds a file naming this repository, so its content (and venv) is new.
 */
export async function gnesRepository(
  versions: string[]
): Promise<{ dir: string; commits: string[] }> {
  const dir = tmp('gnes-repo-')
  git(dir, 'init', '-q', '-b', 'master')
  const commits: string[] = []
  for (const version of versions) {
    for (const entry of fs.readdirSync(dir)) {
      if (entry !== '.git') fs.rmSync(path.join(dir, entry), { recursive: true, force: true })
    }
    execFileSync('tar', ['xzf', await sdist(version), '-C', dir, '--strip-components=1'])
    fs.writeFileSync(path.join(dir, 'BENCH_TEST_REPOSITORY'), `${dir}\n`)
    git(dir, 'add', '-A')
    git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', `GNES ${version}`)
    commits.push(git(dir, 'rev-parse', 'HEAD'))
  }
  return { dir, commits }
}

export { git as gitIn }

/**
 * A GNES repository of one release's source tree and a commit per edit on top of it (each edit
 * changes the checked-out tree), for a bisect. Returns the repository and every commit in order,
 * the release's first.
 */
export async function gnesEdits(
  version: string,
  edits: ((dir: string) => void)[]
): Promise<{ dir: string; commits: string[] }> {
  const repo = await gnesRepository([version])
  for (const [k, edit] of edits.entries()) {
    edit(repo.dir)
    git(repo.dir, 'add', '-A')
    git(
      repo.dir,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '-q',
      '-m',
      `edit ${k + 1}`
    )
    repo.commits.push(git(repo.dir, 'rev-parse', 'HEAD'))
  }
  return repo
}

/** An edit that only changes the tree (a new venv, the same code). */
export const touch =
  (k: number) =>
  (dir: string): void =>
    fs.writeFileSync(path.join(dir, `BENCH_EDIT_${k}`), `${k}\n`)

/** An edit that makes every BaseRouter hold each message for `ms` before forwarding it. */
export const slowRouters =
  (ms: number) =>
  (dir: string): void => {
    const file = path.join(dir, 'gnes', 'router', 'base.py')
    const text = fs.readFileSync(file, 'utf8')
    const apply = '        :param msg: incoming message\n        """\n        pass\n'
    if (!text.includes(apply)) throw new Error(`${file}: BaseRouter.apply is not as expected`)
    fs.writeFileSync(
      file,
      text.replace(
        apply,
        apply.replace('pass\n', `import time\n        time.sleep(${ms / 1000})\n`)
      )
    )
  }
