import type { z } from 'zod';
import type { JobSummary } from '../../shared/app/event-store.ts';
import type { Explanation } from '../../shared/job/explain.ts';
import type { JobState } from '../../shared/job/state.ts';
import { jobStatus } from '../../shared/job/status.ts';
import type { IssuedCommand } from './issued-commands.ts';
import type { JobSpecViewSchema, JobViewSchema } from './schemas/job-schemas.ts';

export type JobView = z.output<typeof JobViewSchema>;
type JobSpecView = z.output<typeof JobSpecViewSchema>;

/** What the view shows beside the state: read by stored-job-view.ts. */
export interface JobViewParts {
  readonly explanation: Explanation;
  readonly commands: IssuedCommand[];
  /** The first log position the commands cover (1: all of them). */
  readonly commandsFrom: number;
  readonly head: number;
  readonly lastRecordedAt: string | undefined;
}

/**
 * The Job with everything `jobfold replay` shows: identity, the spec as the fold reads it,
 * the status, the commands issued, the explanation in sentences, and where the log stands.
 */
export function jobView(summary: JobSummary, state: JobState, parts: JobViewParts): JobView {
  const { explanation, head, lastRecordedAt } = parts;
  const identity = state.identity;
  const status = jobStatus(state);
  return {
    job: {
      clusterId: summary.clusterId,
      namespace: summary.namespace,
      name: identity?.name ?? summary.name,
      uid: summary.uid,
      ...(identity?.creationTimestamp ? { creationTimestamp: identity.creationTimestamp } : {}),
    },
    deleted: state.deleted,
    spec: specView(state),
    status: { ...status, conditions: [...status.conditions] },
    commands: parts.commands,
    commandsFrom: parts.commandsFrom,
    explanation: {
      outcome: explanation.outcome,
      summary: explanation.summary,
      conditions: explanation.conditions.map(({ type, status, reason, sentence }) => ({ type, status, reason, sentence })),
      rejection: [...explanation.rejection],
    },
    log: { head, ...(lastRecordedAt === undefined ? {} : { lastRecordedAt }) },
    refusedUpdate: refusedUpdateView(state),
    stalled: summary.stalled ?? null,
  };
}

function refusedUpdateView(state: JobState): JobView['refusedUpdate'] {
  const refused = state.refusedUpdate;
  if (!refused) return null;
  const errors = refused.errors.map(({ field, type, message }) => ({ field, type, message }));
  return { eventId: refused.eventId, observedAt: refused.observedAt, errors };
}

/** The spec with batch/v1 defaults applied (JobSettings), plus the policies as written. */
function specView(state: JobState): JobSpecView | null {
  const { spec, settings } = state;
  if (!spec || !settings) return null;
  return {
    completionMode: settings.indexed ? 'Indexed' : 'NonIndexed',
    parallelism: settings.parallelism,
    completions: settings.completions ?? null,
    backoffLimit: settings.backoffLimit,
    backoffLimitPerIndex: settings.backoffLimitPerIndex ?? null,
    maxFailedIndexes: settings.maxFailedIndexes ?? null,
    activeDeadlineSeconds: settings.activeDeadlineSeconds ?? null,
    suspend: settings.suspend,
    managedBy: settings.managedBy ?? null,
    podReplacementPolicy: spec.podReplacementPolicy ?? null,
    successPolicy: spec.successPolicy ?? null,
    podFailurePolicy: spec.podFailurePolicy ?? null,
  };
}
