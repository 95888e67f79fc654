import * as path from 'node:path'
import { withDeadline } from './deadline'
import { drainedText, LogTail } from './log-tail'
import type { GnesPlan } from './plan/types'
import type { Placement, Started } from './platform'
import { ServiceFailure, type Deployment, type GnesDeployment, type ScriptRun } from './types'

/** Past a script's own deadline, how long it may take to start, report and exit. */
const SCRIPT_GRACE_SEC = 30

/**
 * A GNES deployment: `base` with the scripts (the load client) run beside it under a deadline, and
 * the route dump read from its frontend (`frontend()`, once it started).
 */
export function gnesDeployment(
  base: Deployment,
  plan: GnesPlan,
  placement: Placement,
  logDir: string,
  frontend: () => Started | undefined
): GnesDeployment {
  const runs = new Map<string, number>()
  return Object.defineProperties(base, {
    routeDumpName: {
      get: () => frontend()?.fileName(plan.routeDump.path) ?? plan.routeDump.path
    },
    readRouteDump: {
      value: async () => (await frontend()?.readFile(plan.routeDump.path)) ?? ''
    },
    runScript: {
      async value({ script, args, timeoutSec, ...run }: ScriptRun): Promise<string> {
        const count = (runs.get(run.name) ?? 0) + 1
        runs.set(run.name, count)
        const name = `${run.name}-${count}`
        // Every line stays: a script's report (the load client's JSON lines) may be long.
        const output = new LogTail(path.join(logDir, `${name}.log`), undefined, Infinity)
        let cancel: (err: Error) => void = () => undefined
        const cancelled = new Promise<never>((_, reject) => (cancel = reject))
        cancelled.catch(() => undefined)
        const running = placement.runScript(name, script, args, output, cancelled)
        let code: number | null
        try {
          code = await withDeadline(
            Promise.race([running, base.failed]),
            (timeoutSec + SCRIPT_GRACE_SEC) * 1000,
            () => new ServiceFailure(name, `did not finish within ${timeoutSec} s`, output.text())
          )
        } catch (err) {
          cancel(err as Error)
          await running.catch(() => undefined)
          throw err
        }
        const text = await drainedText(output)
        const tail = text.split('\n').slice(-30).join('\n')
        if (code !== 0) throw new ServiceFailure(name, `failed (exit ${code})`, tail)
        return text
      }
    }
  }) as GnesDeployment
}
