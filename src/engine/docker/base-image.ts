import type Docker from 'dockerode'
import { ensureBase } from './image-build'

/**
 * A base image as the builds on it see it: its name, and what identifies its content, so a name
 * that moves to another image (a registry's `python:3.11-slim` updated) is another base.
 */
export interface BaseImage {
  name: string
  /** The digest the daemon pulled it by (`repo@sha256:…`), else its image id (a local build). */
  id: string
}

/** `docker.io/library/python` and `python` are one repository; so are `docker.io/x/y` and `x/y`. */
const repository = (ref: string): string =>
  ref.replace(/^(?:index\.)?docker\.io\//, '').replace(/^library\//, '')

/** A reference without its tag: the colon after the last slash (not a registry's port). */
const withoutTag = (ref: string): string => {
  const at = ref.lastIndexOf(':')
  return at > ref.lastIndexOf('/') ? ref.slice(0, at) : ref
}

/**
 * The identity of `name` from the daemon's inspection of it: the RepoDigest of its own repository
 * when it was pulled (a name that pins a digest is that digest), else the image id, which every
 * image has (one made or tagged locally has no RepoDigest).
 */
export function baseIdentity(name: string, info: { Id: string; RepoDigests?: string[] }): string {
  const [ref, pinned] = name.split('@')
  const repo = repository(withoutTag(ref))
  if (pinned) return `${repo}@${pinned}`
  const digest = (info.RepoDigests ?? []).find(d => repository(d.split('@')[0]) === repo)
  return digest ? repository(digest) : info.Id
}

/** The base on the daemon (pulled when missing) and its identity: what a build on it starts from. */
export async function resolveBase(
  docker: Docker,
  name: string,
  log: (line: string) => void
): Promise<BaseImage> {
  await ensureBase(docker, name, log)
  return { name, id: baseIdentity(name, await docker.getImage(name).inspect()) }
}
