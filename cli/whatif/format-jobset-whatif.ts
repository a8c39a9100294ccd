import type { JobSetDecisionSummary, JobSetWhatIfReport } from '../../shared/whatif/jobset-report.ts';
import { sideBySide } from './format-whatif.ts';

/** A JobSet report side by side, for a person: recorded on the left, what-if on the right. */
export function formatJobSetWhatIf(report: JobSetWhatIfReport, title: string): string {
  const { recorded, whatIf } = report;
  const lines = sideBySide(title, recorded, whatIf, ['restarts', String(recorded.restarts), String(whatIf.restarts)]);
  const divergence = report.divergence;
  if (!divergence) {
    lines.push('No divergence: the patched JobSet fold decides what the recorded one did at every reconcile.');
  } else {
    lines.push(`Diverges at event ${divergence.atEvent} (${divergence.at}):`);
    lines.push(`  recorded decided: ${describeAll(divergence.recorded)}`);
    lines.push(`  what-if decided:  ${describeAll(divergence.whatIf)}`);
  }
  return lines.join('\n');
}

const describeAll = (summaries: readonly JobSetDecisionSummary[]): string =>
  summaries.length === 0 ? 'nothing' : summaries.map(describe).join('; ');

function describe(summary: JobSetDecisionSummary): string {
  switch (summary.kind) {
    case 'failed':
      return `fail the JobSet (${summary.reason}): ${summary.rule} on Job ${summary.failedJob} (${summary.jobReason})`;
    case 'restarted':
      return `restart #${summary.restarts} (${summary.action}): ${summary.rule} on Job ${summary.failedJob} (${summary.jobReason})`;
    case 'completed':
      return `complete the JobSet (${summary.reason}): ${summary.succeededJobs} of ${summary.required} Jobs succeeded (${summary.operator})`;
    case 'condition':
      return `${summary.type}=${summary.status} (${summary.reason})`;
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
