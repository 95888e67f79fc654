/**
 * Builds the GNES image of one release from PyPI on a base image, as the Docker engine does on a
 * runner (its own code: the same tag, so the engine finds this image instead of rebuilding).
 * The swarm worker gets a copy (swarm-setup.sh), so it is built before the tests.
 * usage: node scripts/run-ts.mjs scripts/gnes-image.ts [VERSION] [BASE_IMAGE]; prints the tag.
 */
import Docker from 'dockerode'
import { ensureImage } from '../src/engine/docker/image'

const [version = '0.0.47', baseImage = 'python:3.11-slim'] = process.argv.slice(2)
ensureImage(new Docker(), { kind: 'pypi', version, baseImage, archives: null }, line =>
  process.stderr.write(`${line}\n`)
).then(
  tag => console.log(tag),
  (err: Error) => {
    console.error(err.message)
    process.exit(1)
  }
)
