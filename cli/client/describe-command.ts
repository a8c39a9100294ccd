import type { JobSetView, JobView } from '../../functions/query/views.ts';
import type { Explanation } from '../../shared/job/index.ts';
import type { JobSetExplanation } from '../../shared/jobset/index.ts';
import { describe } from '../print/index.ts';
import { ENDPOINT_HELP, OBJECT_OPTIONS, objectOptionsHelp, UsageError, clientFor, kindOf, objectPath, parse } from './client-options.ts';
import { machineOutput, parseOutput } from './render.ts';

export const DESCRIBE_HELP = `Usage: jobfold describe job|jobset NAME --cluster C [-n NS] [--uid UID] [-o json|yaml]

The Job or JobSet as \`kubectl describe\` shows it, from the service: spec, status, conditions,
the commands jobfold issued and the explanation of each condition (what \`jobfold replay\`
prints for a file). On a long log the commands are those of its last 5,000 entries, and it says
so: \`jobfold commands\` lists every one.

Options:
${objectOptionsHelp('object')}
  -o FORMAT             json or yaml: the API's view and explanation as one object
${ENDPOINT_HELP}
  -h, --help            this help`;

export async function describeCommand(argv: readonly string[]): Promise<string> {
  const { values, positionals } = parse(argv, OBJECT_OPTIONS);
  if (values.help) return `${DESCRIBE_HELP}\n`;
  if (positionals.length > 2) throw new UsageError(`one object at a time: ${positionals.slice(2).join(' ')}`);
  const kind = kindOf(positionals[0], ['job', 'jobset']);
  const path = objectPath(kind, positionals[1], values.cluster, values.namespace);
  const format = parseOutput(values.output, ['table', 'json', 'yaml']);
  const client = clientFor(values.endpoint);
  const query = { uid: values.uid };
  const [view, explanation] = await Promise.all([client.get<unknown>(path, query), client.get<unknown>(`${path}/explain`, query)]);
  if (format === 'json' || format === 'yaml') return machineOutput({ view, explanation }, format);
  // The kind asked for, also from a service older than the explanation's `kind`.
  return kind === 'job'
    ? describeJobView(view as JobView, { ...(explanation as Explanation), kind: 'Job' })
    : describeJobSetView(view as JobSetView, { ...(explanation as JobSetExplanation), kind: 'JobSet' });
}

/** The Job view and its explanation as `jobfold describe job` prints them. */
export function describeJobView(view: JobView, explanation: Explanation): string {
  const { job } = view;
  const log = `${view.log.head} entries${view.log.lastRecordedAt ? `, last recorded ${view.log.lastRecordedAt}` : ''}${view.deleted ? ' (deleted in the cluster)' : ''}`;
  const commands = { from: 'log', commands: view.commands, commandsFrom: view.commandsFrom } as const;
  return `${describe({ kind: 'Job', view: { ...view, job }, origin: ['Log', log], commands, explanation })}\n`;
}

/** The JobSet view and its explanation as `jobfold describe jobset` prints them. */
export function describeJobSetView(view: JobSetView, explanation: JobSetExplanation): string {
  return `${describe({
    kind: 'JobSet',
    jobSet: view.jobSet,
    origin: ['Log', `${view.log.head} entries${view.deleted ? ' (deleted in the cluster)' : ''}`],
    spec: view.spec,
    status: view.status,
    childJobs: { title: 'Child Jobs', jobs: view.childJobs },
    commands: { from: 'log', commands: view.commands, commandsFrom: view.commandsFrom },
    explanation,
  })}\n`;
}
