import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { WriteOutcome } from '../../shared/decide/write-batch.ts';
import { logger, METRIC, metrics } from '../commons/powertools.ts';

/**
 * The metrics of what the log writer decided for one log: jobs_finished_total by reason,
 * pods_terminated_total, the decision latency from the newest observation to the commands,
 * conflicts lost on the head, snapshots skipped, and a log parked as stalled.
 */
export function recordDecisionMetrics(outcome: WriteOutcome, now: string): void {
  if (outcome.stalled) {
    logger.error(`${outcome.stream.kind.toLowerCase()} stalled: its write fails on every retry`, { stream: outcome.stream, stalled: outcome.stalled });
    metrics.addMetric(METRIC.jobsStalled, MetricUnit.Count, 1);
  }
  if (outcome.snapshotSkipped !== undefined) {
    logger.error('snapshot over the size limit not written; loads read the log from the last one', { stream: outcome.stream, bytes: outcome.snapshotSkipped });
    metrics.addMetric(METRIC.snapshotsSkipped, MetricUnit.Count, 1);
  }
  if (outcome.attempts > 1) metrics.addMetric(METRIC.reconcileConflicts, MetricUnit.Count, outcome.attempts - 1);
  for (const decision of outcome.decisions as { type?: string; condition?: { type: string; status: string; reason: string } }[]) {
    if (outcome.stream.kind !== 'Job' || decision.type !== 'JobConditionChanged' || !decision.condition) continue;
    const { type, status, reason } = decision.condition;
    if ((type === 'Complete' || type === 'Failed') && status === 'True') {
      const single = metrics.singleMetric();
      single.addDimension('reason', reason);
      single.addMetric(METRIC.jobsFinished, MetricUnit.Count, 1);
    }
  }
  const terminated = outcome.published.filter((e) => e.detailType === 'Pod Termination Requested').length;
  if (terminated > 0) metrics.addMetric(METRIC.podsTerminated, MetricUnit.Count, terminated);
  if (outcome.published.length > 0 && outcome.latestObservedAt) {
    metrics.addMetric(METRIC.decisionLatency, MetricUnit.Milliseconds, Date.parse(now) - Date.parse(outcome.latestObservedAt));
  }
}
