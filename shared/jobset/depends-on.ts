import type { DefaultedJobSetSpec } from './defaulting.ts';
import type { ReplicatedJobStatus } from './replicated-jobs-status.ts';

/** A dependency a replicated job waits for: the first of its `dependsOn` not reached yet. */
export interface DependencyWait {
  /** The replicated job it depends on. */
  readonly dependency: string;
  /** `Ready` or `Complete`. */
  readonly status: string;
  /** Ready: ready + succeeded + failed Jobs of the dependency; Complete: its succeeded Jobs. */
  readonly reached: number;
  /** The dependency's replicas, as upstream counts them (0 for a name not seen yet). */
  readonly needed: number;
  /** The part of `reached` that finished Jobs make up (Ready only: succeeded + failed). */
  readonly finished: number;
}

/** What `dependsOn` allows in one pass: the replicated jobs held back, and on what. */
export interface DependsOnPlan {
  readonly held: ReadonlyMap<string, DependencyWait>;
}

/**
 * `replicatedJobs[].dependsOn` (`dependencyReachedStatus`, depends_on.go), over the statuses
 * computed at the start of the pass. A replicated job is created — and, when a suspended
 * JobSet is resumed, resumed — only once every dependency has reached its status:
 * `Ready` when ready + succeeded + failed equals the dependency's replicas, `Complete` when
 * succeeded does. The comparison is equality, as upstream's. Upstream fills its map of
 * replicas while walking the spec, so a dependency on a later replicated job (which admission
 * refuses) reads 0 replicas; the same is done here. A replicated job that depends on itself
 * (admission lets it through) waits for its own Jobs, which are never created.
 */
export function matchDependsOn(spec: DefaultedJobSetSpec, statuses: readonly ReplicatedJobStatus[]): DependsOnPlan {
  const replicas = new Map<string, number>();
  const held = new Map<string, DependencyWait>();
  for (const rjob of spec.replicatedJobs) {
    replicas.set(rjob.name, rjob.replicas);
    for (const { name, status } of rjob.dependsOn ?? []) {
      const wait = unreached(name, status, replicas.get(name) ?? 0, statuses.find((s) => s.name === name));
      if (wait !== undefined) {
        held.set(rjob.name, wait);
        break;
      }
    }
  }
  return { held };
}

function unreached(
  dependency: string,
  status: string,
  needed: number,
  actual: ReplicatedJobStatus | undefined,
): DependencyWait | undefined {
  const wait = (reached: number, finished: number): DependencyWait => ({ dependency, status, reached, needed, finished });
  // No status row for the dependency: upstream returns false whatever the wanted status.
  if (actual === undefined) return wait(0, 0);
  if (status === 'Complete' && actual.succeeded !== needed) return wait(actual.succeeded, 0);
  const finished = actual.succeeded + actual.failed;
  if (status === 'Ready' && actual.ready + finished !== needed) return wait(actual.ready + finished, finished);
  return undefined;
}
