import type { JobState } from './state.ts';
import type { SummaryUpdate } from '../log/event-store.ts';
import { boundedText, MAX_REASON_BYTES } from '../k8s/bounded-text.ts';

/** The row the fleet view shows for a Job: its latest condition and when it finished. */
export function jobSummary(state: JobState, now: string): SummaryUpdate | undefined {
  const identity = state.identity;
  if (!identity) return undefined;
  const conditions = state.status.conditions;
  const latest = conditions.at(-1);
  const finished = conditions.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  const rejected = state.rejected !== undefined;
  return {
    name: identity.name,
    createdAt: identity.creationTimestamp ?? now,
    updatedAt: now,
    latestCondition: rejected
      ? { type: 'Rejected', status: 'True', reason: 'Invalid', message: `${state.rejected?.length} validation errors` }
      : latest && {
          type: latest.type,
          status: latest.status,
          reason: latest.reason,
          message: boundedText(latest.message),
          lastTransitionTime: latest.lastTransitionTime,
        },
    finishedAt: finished?.lastTransitionTime,
    ...(state.deleted ? { deleted: true } : {}),
    ...(state.refusedUpdate
      ? { refusedUpdate: { eventId: state.refusedUpdate.eventId, errors: state.refusedUpdate.errors.map((e) => boundedText(e.message, MAX_REASON_BYTES)).slice(0, 10) } }
      : {}),
  };
}
