import type { BusEvent } from './bus/local-bus.ts';
import type { LocalStack } from './local-stack.ts';
import type { Decided } from './report/decided.ts';

/** A live line for a `Job Condition Changed` event: `[+3.1s] cluster/ns/name: Type=True (Reason)`. */
export function conditionLine(event: BusEvent, startedMs: number): string | undefined {
  if (event['detail-type'] !== 'Job Condition Changed') return undefined;
  const { clusterId, job, condition } = event.detail as {
    clusterId: string;
    job: { namespace: string; name: string };
    condition: { type: string; status: string; reason: string };
  };
  const elapsed = ((Date.now() - startedMs) / 1000).toFixed(1);
  return `  [+${elapsed}s] ${clusterId}/${job.namespace}/${job.name}: ${condition.type}=${condition.status} (${condition.reason})`;
}

/** What to try next, with the Jobs just decided. */
export function tryLines(stack: LocalStack, decided: readonly Decided[]): string[] {
  const jobs = decided.flatMap((object) => (object.kind === 'Job' ? [object] : []));
  const job = (jobs.find((j) => j.delivered.length > 0) ?? jobs[0])?.view.job;
  const lines = ['Try:', `  curl -s ${stack.url}/v1/jobs`];
  if (job) {
    const path = `${stack.url}/v1/clusters/${job.clusterId}/namespaces/${job.namespace}/jobs/${job.name}`;
    lines.push(`  curl -s ${path}/explain`, `  curl -s ${path}/history`);
    lines.push(`  curl -s ${stack.url}/local/clusters/${job.clusterId}/commands`);
  }
  lines.push(`  curl -s ${stack.url}/local/rejected`);
  if (job) {
    // kubectl through jobfold's read-only Kubernetes API (docs/kubectl.md).
    const endpoint = stack.url === 'http://127.0.0.1:3000' ? '' : ` --endpoint ${stack.url}`;
    lines.push(`  npx jobfold kubeconfig${endpoint} && kubectl --context jobfold-${job.clusterId} get jobs -A`);
  }
  return lines;
}
