import type { DecisionSummary, JobSetDecisionSummary } from './report.ts';

/** Pod names a termination names in a sentence; the rest are counted. */
const PODS_NAMED = 5;

/** What the Job fold decided, in one phrase per decision (the what-if's and the advice's printers). */
export function describeDecisions(summaries: readonly DecisionSummary[]): string {
  return summaries.length === 0 ? 'nothing' : summaries.map(describeDecision).join('; ');
}

export function describeDecision(summary: DecisionSummary): string {
  switch (summary.kind) {
    case 'condition':
      return `${summary.type}=${summary.status} (${summary.reason})`;
    case 'termination':
      return `terminate ${podList(summary.pods)} (${summary.reason === summary.cause ? summary.cause : `${summary.cause}: ${summary.reason}`})`;
    case 'creation':
      return `create ${summary.count} pod(s)${summary.indexes ? ` for indexes ${summary.indexes.join(',')}` : ''}`;
    case 'startTime':
      return `startTime ${summary.startTime}`;
    case 'correction':
      return `take back ${summary.retracted.join(', ')} (${summary.reason} was met first)`;
    case 'rejection':
      return `reject the Job: ${summary.errors.join('; ')}`;
    case 'pod': {
      const indexes = summary.failedIndexes === '' ? '' : `, failed indexes ${summary.failedIndexes}`;
      return `pod ${summary.pod} counted ${summary.counted} (failed ${summary.failed}, succeeded ${summary.succeeded}${indexes})`;
    }
  }
}

/** What the JobSet fold decided, in one phrase per decision: the rule and the child Job it acted on. */
export function describeJobSetDecisions(summaries: readonly JobSetDecisionSummary[]): string {
  return summaries.length === 0 ? 'nothing' : summaries.map(describeJobSetDecision).join('; ');
}

function describeJobSetDecision(summary: JobSetDecisionSummary): string {
  switch (summary.kind) {
    case 'failed':
      return `fail the JobSet (${summary.reason}): ${summary.rule} on Job ${summary.failedJob} (${summary.jobReason})`;
    case 'restarted':
      return `restart #${summary.restarts} (${summary.action}): ${summary.rule} on Job ${summary.failedJob} (${summary.jobReason})`;
    case 'completed':
      return `complete the JobSet (${summary.reason}): ${summary.succeededJobs} of ${summary.required} Jobs succeeded (${summary.operator})`;
    case 'condition':
      return `${summary.type}=${summary.status} (${summary.reason})`;
    case 'correction':
      return `take back ${summary.retracted.join(', ')} (the cluster decided ${summary.reason})`;
    case 'rejected':
      return `reject the JobSet: ${summary.errors.join('; ')}`;
    case 'createJob':
    case 'deleteJob':
    case 'suspendJob':
    case 'resumeJob':
      return `${summary.kind.replace('Job', '')} Job ${summary.job}`;
    case 'deleteJobSet':
      return `delete the JobSet (ttlSecondsAfterFinished expired at ${summary.expiredAt})`;
  }
}

function podList(pods: readonly string[]): string {
  if (pods.length <= PODS_NAMED) return pods.join(', ');
  return `${pods.length} pods (${pods.slice(0, PODS_NAMED).join(', ')}, …)`;
}
