import * as fs from 'node:fs'
import * as path from 'node:path'
import { compileCompose } from '../../src/topology/compose/read'
import { yamlFile } from '../../src/topology/yaml'
import { tmp } from './tmp'

export const COMPOSE_FIXTURES = path.join(__dirname, '..', 'fixtures', 'compose')

/** A fresh directory holding `files` (name → text). */
export function composeDir(files: Record<string, string>): string {
  const dir = tmp()
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    fs.writeFileSync(path.join(dir, name), text)
  }
  return dir
}

/** Compose files (paths, in merge order) compiled with `env` as the environment: data and notes. */
const compiled = (files: string[], env: NodeJS.ProcessEnv) =>
  compileCompose(
    files.map(file => ({ file, ...yamlFile(fs.readFileSync(file, 'utf8'), file) })),
    env
  )

/** Compose files (paths, in merge order) compiled to native data with `env` as the environment. */
export const compileFiles = (files: string[], env: NodeJS.ProcessEnv = {}) =>
  compiled(files, env).data

/** One Compose file's text compiled (data and notes), with `others` beside it (.env, env files). */
export function compileWithNotes(
  text: string,
  env: NodeJS.ProcessEnv = {},
  others: Record<string, string> = {}
) {
  const dir = composeDir({ 'compose.yaml': text, ...others })
  return compiled([path.join(dir, 'compose.yaml')], env)
}

/** One Compose file's text compiled, with `others` beside it (.env, env files). */
export const compileText = (
  text: string,
  env: NodeJS.ProcessEnv = {},
  others: Record<string, string> = {}
): Record<string, unknown> => compileWithNotes(text, env, others).data

/** The message `text` is refused with. */
export function composeError(
  text: string,
  env: NodeJS.ProcessEnv = {},
  others: Record<string, string> = {}
): string {
  try {
    compileText(text, env, others)
  } catch (err) {
    return (err as Error).message
  }
  throw new Error('compiled')
}
