import type { DecisionSummary, JobSetDecisionSummary } from './report.ts';

/** Pod names a termination names in a sentence; the rest are counted. */
const PODS_NAMED = 5;

/** A decision of either kind's fold, as the what-if compares it (report.ts). */
export type AnyDecisionSummary = DecisionSummary | JobSetDecisionSummary;

/**
 * What a fold decided, in one phrase per decision (the what-if's and the advice's printers).
 * One sentence per decision type for both kinds: a condition, a correction and a rejection read
 * the same for a Job and a JobSet but for the object's name (`kind`) and what a correction
 * yields to — a Job takes back a condition when another was met first, a JobSet when its
 * cluster decided otherwise.
 */
export function describeDecisions(kind: 'Job' | 'JobSet', summaries: readonly AnyDecisionSummary[]): string {
  return summaries.length === 0 ? 'nothing' : summaries.map((summary) => describeDecision(kind, summary)).join('; ');
}

function describeDecision(kind: 'Job' | 'JobSet', summary: AnyDecisionSummary): string {
  switch (summary.kind) {
    case 'condition':
      return `${summary.type}=${summary.status} (${summary.reason})`;
    case 'correction':
      return `take back ${summary.retracted.join(', ')} (${kind === 'Job' ? `${summary.reason} was met first` : `the cluster decided ${summary.reason}`})`;
    case 'rejection':
    case 'rejected':
      return `reject the ${kind}: ${summary.errors.join('; ')}`;
    // A Job's pods.
    case 'termination':
      return `terminate ${podList(summary.pods)} (${summary.reason === summary.cause ? summary.cause : `${summary.cause}: ${summary.reason}`})`;
    case 'creation':
      return `create ${summary.count} pod(s)${summary.indexes ? ` for indexes ${summary.indexes.join(',')}` : ''}`;
    case 'startTime':
      return `startTime ${summary.startTime}`;
    case 'pod': {
      const indexes = summary.failedIndexes === '' ? '' : `, failed indexes ${summary.failedIndexes}`;
      return `pod ${summary.pod} counted ${summary.counted} (failed ${summary.failed}, succeeded ${summary.succeeded}${indexes})`;
    }
    // A JobSet's rules and child Jobs.
    case 'failed':
      return `fail the JobSet (${summary.reason}): ${summary.rule} on Job ${summary.failedJob} (${summary.jobReason})`;
    case 'restarted':
      return `restart #${summary.restarts} (${summary.action}): ${summary.rule} on Job ${summary.failedJob} (${summary.jobReason})`;
    case 'completed':
      return `complete the JobSet (${summary.reason}): ${summary.succeededJobs} of ${summary.required} Jobs succeeded (${summary.operator})`;
    case 'createJob':
    case 'deleteJob':
    case 'suspendJob':
    case 'resumeJob':
      return `${summary.kind.replace('Job', '')} Job ${summary.job}`;
    case 'deleteJobSet':
      return `delete the JobSet (ttlSecondsAfterFinished expired at ${summary.expiredAt})`;
    case 'released':
      return `fold ${summary.count === undefined ? `JobSet ${summary.job}'s observation` : `Job ${summary.job}'s event (jobSetSeq ${summary.count})`}, kept aside until the child Job events sent before it arrived`;
    default: {
      const exhaustive: never = summary;
      throw new Error(`unknown decision summary ${JSON.stringify(exhaustive)}`);
    }
  }
}

function podList(pods: readonly string[]): string {
  if (pods.length <= PODS_NAMED) return pods.join(', ');
  return `${pods.length} pods (${pods.slice(0, PODS_NAMED).join(', ')}, …)`;
}
