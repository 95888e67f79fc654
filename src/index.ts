import { fail } from './action/log'
import { run } from './main'

run().catch((err: unknown) => fail(err instanceof Error ? err.message : String(err)))
