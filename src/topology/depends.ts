import type { ContainerService, DependencyEntry } from './http-schema'

/** When a dependent may start: once its dependency started, is ready, or ran to exit code 0. */
export type Condition = 'started' | 'healthy' | 'completed'

export interface Dependency {
  service: string
  condition: Condition
}

/** One dependsOn entry in its object form: a plain name means `started`. */
export const dependency = (d: DependencyEntry): Dependency =>
  typeof d === 'string' ? { service: d, condition: 'started' } : d

/** A service's dependencies, each in its object form. */
export const dependencies = (s: Pick<ContainerService, 'dependsOn'>): Dependency[] =>
  s.dependsOn.map(dependency)

/**
 * The services some other one waits on to complete: one-shot jobs, whose exit with code 0 is
 * their readiness and no failure.
 */
export function oneShots(services: readonly Pick<ContainerService, 'dependsOn'>[]): Set<string> {
  return new Set(
    services.flatMap(s =>
      dependencies(s)
        .filter(d => d.condition === 'completed')
        .map(d => d.service)
    )
  )
}
