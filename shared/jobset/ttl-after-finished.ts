import { formatTime, parseTime } from '../k8s/time.ts';
import type { JobSetCondition } from './conditions.ts';
import { CONDITION_TYPES } from './constants.ts';
import type { DefaultedJobSetSpec } from './defaulting.ts';

/** What `ttlSecondsAfterFinished` says of a finished JobSet at one moment. */
export type TtlAfterFinished =
  | { readonly kind: 'none' }
  | { readonly kind: 'pending' | 'expired'; readonly ttlSecondsAfterFinished: number; readonly finishedAt: string; readonly expireAt: string };

/**
 * `executeTTLAfterFinishedPolicy` (ttl_after_finished.go), which the JobSet controller runs on a
 * finished JobSet after deleting its active Jobs: the JobSet finished at the
 * `lastTransitionTime` of its first True `Completed` or `Failed` condition (`jobSetFinishTime`)
 * and expires `ttlSecondsAfterFinished` later; at or after that instant (remaining ≤ 0) it is
 * deleted with foreground propagation, before it the controller requeues itself for the
 * remaining time. Without the field, or for a JobSet not finished, nothing.
 */
export function matchTtlAfterFinished(
  spec: DefaultedJobSetSpec,
  conditions: readonly JobSetCondition[],
  now: string,
): TtlAfterFinished {
  const ttlSecondsAfterFinished = spec.ttlSecondsAfterFinished;
  if (ttlSecondsAfterFinished === undefined) return { kind: 'none' };
  const finished = conditions.find(
    (c) => (c.type === CONDITION_TYPES.completed || c.type === CONDITION_TYPES.failed) && c.status === 'True',
  );
  if (finished === undefined || finished.lastTransitionTime === '') return { kind: 'none' };
  const expireAtMs = parseTime(finished.lastTransitionTime) + ttlSecondsAfterFinished * 1000;
  const kind = expireAtMs - parseTime(now) <= 0 ? 'expired' : 'pending';
  return { kind, ttlSecondsAfterFinished, finishedAt: finished.lastTransitionTime, expireAt: formatTime(expireAtMs) };
}
