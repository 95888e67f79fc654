/**
 * The base images the defaults and the examples name, as the daemon holds them: pulled from a
 * registry, or made here where none answers (scripts/docker-base-image.sh, docker-node-image.sh).
 * Either way they must have the traits of the real ones that builds meet, or a test that passes on
 * them would hide the failure a runner meets: python:3.11-slim with Debian, Python 3.11, and
 * `python`, `python3` and `pip` in /usr/local/bin where `pip install` is allowed, but no C compiler
 * and no pip cache; node:20-slim with Node.js 20, npm, corepack, Yarn 1 and the `node` user (1000).
 *
 * @side-by-side: the images' traits; no figure.
 */
import { execFileSync } from 'node:child_process'
import { BASE_IMAGE, describeDocker } from './helpers/docker'

/** Runs `script` in a throwaway container of `image`; its output, or what failed. */
function inImage(image: string, script: string): string {
  return execFileSync('docker', ['run', '--rm', '--entrypoint', 'sh', image, '-c', script], {
    encoding: 'utf8',
    timeout: 60_000
  }).trim()
}

describeDocker('the base images builds start from', () => {
  test(`${BASE_IMAGE}: Debian bookworm, Python 3.11 with venv, no C compiler, no pip cache`, () => {
    expect(inImage(BASE_IMAGE, '. /etc/os-release && echo $ID $VERSION_CODENAME')).toBe(
      'debian bookworm'
    )
    expect(inImage(BASE_IMAGE, 'python3 --version')).toMatch(/^Python 3\.11\./)
    expect(inImage(BASE_IMAGE, 'python3 -m venv /tmp/v && echo venv')).toBe('venv')
    expect(
      inImage(BASE_IMAGE, 'for c in gcc cc x86_64-linux-gnu-gcc; do command -v $c; done; true')
    ).toBe('')
    expect(inImage(BASE_IMAGE, 'ls -A /root/.cache/pip 2>/dev/null | wc -l')).toBe('0')
  })

  test(`${BASE_IMAGE}: python and pip in /usr/local/bin, and pip may install into it`, () => {
    expect(inImage(BASE_IMAGE, 'for c in python python3 pip pip3; do command -v $c; done')).toBe(
      ['python', 'python3', 'pip', 'pip3'].map(c => `/usr/local/bin/${c}`).join('\n')
    )
    expect(inImage(BASE_IMAGE, 'python --version')).toMatch(/^Python 3\.11\./)
    expect(inImage(BASE_IMAGE, 'pip --version')).toMatch(/^pip \d+\.\d+.* \(python 3\.11\)$/)
    // No "externally-managed-environment" refusal: public Dockerfiles `pip install` without a venv.
    expect(inImage(BASE_IMAGE, 'python -m pip install -q --no-index pip && echo allowed')).toBe(
      'allowed'
    )
  })

  test('node:20-slim: Node.js 20, npm, corepack, Yarn 1, the node user, no C compiler', () => {
    expect(inImage('node:20-slim', 'node --version')).toMatch(/^v20\./)
    expect(inImage('node:20-slim', 'npm --version')).toMatch(/^\d+\.\d+\.\d+$/)
    expect(inImage('node:20-slim', 'corepack --version')).toMatch(/^\d+\.\d+\.\d+$/)
    expect(inImage('node:20-slim', 'yarn --version && yarnpkg --version')).toMatch(
      /^1\.22\.\d+\n1\.22\.\d+$/
    )
    expect(inImage('node:20-slim', 'id -u node && id -g node && echo ~node')).toBe(
      '1000\n1000\n/home/node'
    )
    expect(inImage('node:20-slim', 'command -v gcc cc; true')).toBe('')
  })
})
