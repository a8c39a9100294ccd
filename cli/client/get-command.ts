import type { JobSummary } from '../../shared/log/event-store.ts';
import type { ApiClient } from './api-client.ts';
import { COMMON_OPTIONS, ENDPOINT_HELP, UsageError, clientFor, kindOf, parse } from './client-options.ts';
import { age, machineOutput, parseOutput, table } from './render.ts';

export const GET_HELP = `Usage: jobfold get jobs|jobsets [-A | --cluster C] [-n NS] [--state S] [--reason R] [-o wide|json|yaml]

Lists the fleet's Jobs or JobSets, newest first, every page of the API followed. STATUS adds
Stalled (every reconcile fails: see describe) and UpdateRefused (the latest update is one the
API server would refuse), as kubectl writes Ready,SchedulingDisabled.

Options:
  -A, --all-namespaces  every cluster and namespace (the default without --cluster and -n)
  --cluster C           only cluster C
  -n, --namespace NS    only namespace NS
  --state S             Running, Succeeded or Failed (by the latest condition: Complete or
                        Completed is Succeeded, Failed is Failed, anything else is Running)
  --reason R            only those whose latest condition has reason R (e.g. BackoffLimitExceeded)
  -o FORMAT             wide (adds UID, UPDATED, FINISHED), json or yaml
${ENDPOINT_HELP}
  -h, --help            this help`;

const STATES = ['Running', 'Succeeded', 'Failed'] as const;
type State = (typeof STATES)[number];
const PAGE = '100';

/** The Job's state as kubectl's STATUS column names it: the latest condition type, or Running. */
function conditionStatus(item: JobSummary): string {
  const condition = item.latestCondition;
  return condition !== undefined && condition.status === 'True' ? condition.type : 'Running';
}

/**
 * The STATUS column: the condition, then what needs an operator, comma-separated as kubectl
 * writes `Ready,SchedulingDisabled`: `Stalled` (every reconcile fails; `describe` has the error)
 * and `UpdateRefused` (the latest update is one the API server would refuse).
 */
export function statusColumn(item: JobSummary): string {
  return [conditionStatus(item), ...(item.stalled ? ['Stalled'] : []), ...(item.refusedUpdate ? ['UpdateRefused'] : [])].join(',');
}

function stateOf(item: JobSummary): State {
  const status = conditionStatus(item);
  if (status === 'Complete' || status === 'Completed') return 'Succeeded';
  return status === 'Failed' ? 'Failed' : 'Running';
}

export async function getCommand(argv: readonly string[]): Promise<string> {
  const { values, positionals } = parse(argv, {
    ...COMMON_OPTIONS,
    cluster: { type: 'string' },
    namespace: { type: 'string', short: 'n' },
    'all-namespaces': { type: 'boolean', short: 'A', default: false },
    state: { type: 'string' },
    reason: { type: 'string' },
  });
  if (values.help) return `${GET_HELP}\n`;
  if (positionals.length !== 1) throw new UsageError('name what to list: jobfold get jobs|jobsets');
  const kind = kindOf(positionals[0], ['job', 'jobset']);
  const all = values['all-namespaces'];
  if (all && (values.cluster !== undefined || values.namespace !== undefined)) throw new UsageError('-A lists everything: leave out --cluster and -n');
  const state = values.state;
  if (state !== undefined && !(STATES as readonly string[]).includes(state)) throw new UsageError(`--state: one of ${STATES.join(', ')}, not "${state}"`);
  const format = parseOutput(values.output, ['table', 'wide', 'json', 'yaml']);
  const items = await listAll(clientFor(values.endpoint), kind, {
    cluster: values.cluster,
    namespace: values.namespace,
    // Succeeded and Failed are one condition type each, which the API filters on; Running and
    // reasons are filtered here, on every page.
    condition: state === 'Failed' ? 'Failed' : state === 'Succeeded' ? (kind === 'job' ? 'Complete' : 'Completed') : undefined,
  });
  const shown = items.filter((item) => (state === undefined || stateOf(item) === state)
    && (values.reason === undefined || item.latestCondition?.reason === values.reason));
  if (format === 'json' || format === 'yaml') return machineOutput({ items: shown }, format);
  if (shown.length === 0) {
    process.stderr.write(`No ${kind === 'job' ? 'Jobs' : 'JobSets'} found.\n`); // as kubectl: not an error
    return '';
  }
  return render(shown, { cluster: values.cluster === undefined, namespace: values.namespace === undefined, wide: format === 'wide' });
}

/** Every page of the fleet list. */
export async function listAll(client: ApiClient, kind: 'job' | 'jobset', filters: Record<string, string | undefined>): Promise<JobSummary[]> {
  const items: JobSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.get<{ items: JobSummary[]; nextCursor?: string }>(kind === 'job' ? '/v1/jobs' : '/v1/jobsets', { ...filters, limit: PAGE, cursor });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return items;
}

function render(items: readonly JobSummary[], show: { cluster: boolean; namespace: boolean; wide: boolean }): string {
  const now = Date.now();
  const header = [
    ...(show.cluster ? ['CLUSTER'] : []), ...(show.namespace ? ['NAMESPACE'] : []),
    'NAME', 'STATUS', 'REASON', 'AGE', ...(show.wide ? ['UPDATED', 'FINISHED', 'UID'] : []),
  ];
  const rows = items.map((item) => [
    ...(show.cluster ? [item.clusterId] : []), ...(show.namespace ? [item.namespace] : []),
    item.name, statusColumn(item), item.latestCondition?.reason ?? '<none>', age(item.createdAt, now),
    ...(show.wide ? [age(item.updatedAt, now), item.finishedAt === undefined ? '<none>' : age(item.finishedAt, now), item.uid] : []),
  ]);
  return table(header, rows);
}
