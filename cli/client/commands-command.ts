import type * as z from 'zod';
import type { JobCommandsPageSchema, JobSetCommandsPageSchema } from '../../functions/query/commands/commands-schemas.ts';
import { ENDPOINT_HELP, OBJECT_OPTIONS, objectOptionsHelp, UsageError, clientFor, kindOf, objectPath, parse } from './client-options.ts';
import { machineOutput, parseOutput, table } from './render.ts';

export const COMMANDS_HELP = `Usage: jobfold commands job|jobset NAME --cluster C [-n NS] [--uid UID] [--page-size N] [-o json|yaml]

Every command jobfold decided for the object, oldest first, each with the log position of the
decision that issued it (#N, as in \`history\`): for a Job, each pod it asked to delete or to free
of its tracking finalizer (one line per pod), each batch of pod creations and each status write;
for a JobSet, each child Job it created, deleted, suspended or resumed. Every page of the API's
\`…/commands\` is followed, so all of a 100,000-pod Job's terminations are listed; \`describe\`
shows those of the last 5,000 log entries only. DELIVERY says what the service knows: queued
(put in the outbox for the cluster's queue) or computed only (a Job jobfold does not manage).

Options:
${objectOptionsHelp('object')}
  --page-size N         commands per API call, 1..5000 (default 5000)
  -o FORMAT             json or yaml: one item per decision, with all its pods
${ENDPOINT_HELP}
  -h, --help            this help`;

type JobPage = z.output<typeof JobCommandsPageSchema>;
type JobSetPage = z.output<typeof JobSetCommandsPageSchema>;
type JobItem = JobPage['items'][number];
type Page = JobPage | JobSetPage;

/** Reads one page of `…/commands` (after the cursor, if any). */
export type PageReader = (query: Record<string, string | undefined>) => Promise<Page>;

export async function commandsCommand(argv: readonly string[], write: (text: string) => void, reader?: PageReader): Promise<void> {
  const { values, positionals } = parse(argv, { ...OBJECT_OPTIONS, 'page-size': { type: 'string' } });
  if (values.help) return write(`${COMMANDS_HELP}\n`);
  if (positionals.length > 2) throw new UsageError(`one object at a time: ${positionals.slice(2).join(' ')}`);
  const kind = kindOf(positionals[0], ['job', 'jobset']);
  const path = `${objectPath(kind, positionals[1], values.cluster, values.namespace)}/commands`;
  const format = parseOutput(values.output, ['table', 'json', 'yaml']);
  const pageSize = values['page-size'] ?? '5000';
  if (!/^[0-9]{1,4}$/.test(pageSize) || Number(pageSize) < 1 || Number(pageSize) > 5000) {
    throw new UsageError(`--page-size must be a whole number from 1 to 5000, not "${pageSize}"`);
  }
  const read = reader ?? ((query) => clientFor(values.endpoint).get<Page>(path, query));
  const items = await readAll(read, { uid: values.uid, limit: pageSize });
  if (format === 'json' || format === 'yaml') return write(machineOutput({ items: joined(items) }, format));
  if (items.length === 0) return write(`No command was decided for this ${kind === 'job' ? 'Job' : 'JobSet'}.\n`);
  write(kind === 'job' ? jobTable(items as JobItem[]) : jobSetTable(items as JobSetPage['items']));
}

/** Every item of every page, following `nextCursor` to the end. */
async function readAll(read: PageReader, query: Record<string, string | undefined>): Promise<Page['items']> {
  const items: Page['items'] = [];
  for (let after: string | undefined, first = true; first || after !== undefined; first = false) {
    const page = await read({ ...query, ...(after === undefined ? {} : { after }) });
    items.push(...(page.items as never[]));
    after = page.nextCursor;
  }
  return items;
}

/** A decision split across pages (`podsFrom` > 0) joined back into one item with all its pods. */
function joined(items: Page['items']): unknown[] {
  const result: Record<string, unknown>[] = [];
  for (const item of items) {
    if (!('podsFrom' in item)) { result.push(item); continue; }
    const { podsFrom, podsOf: _podsOf, ...rest } = item;
    const last = result.at(-1);
    if (podsFrom > 0 && last?.['seq'] === item.seq) (last['pods'] as unknown[]).push(...item.pods);
    else result.push({ ...rest, pods: [...item.pods] });
  }
  return result;
}

function jobTable(items: readonly JobItem[]): string {
  const rows = items.flatMap((c) => {
    const head = [`#${c.seq}`, c.at, c.type, c.dispatched ? 'queued' : 'computed only'];
    switch (c.type) {
      case 'TerminatePod': return c.pods.map((p) => [...head, podName(p), `${c.cause}: ${c.reason}`]);
      case 'RemovePodFinalizer': return c.pods.map((p) => [...head, podName(p), 'remove the tracking finalizer']);
      case 'CreatePod': return [[...head, `${c.count} pod${c.count === 1 ? '' : 's'}`, c.indexes ? `indexes ${c.indexes.join(',')}` : '']];
      case 'UpdateJobStatus': return [[...head, 'status', c.hash.slice(0, 12)]];
    }
  });
  return table(['SEQ', 'DECIDED', 'COMMAND', 'DELIVERY', 'TARGET', 'WHY'], rows);
}

const podName = (pod: { name: string; index?: number }) => (pod.index === undefined ? pod.name : `${pod.name} (index ${pod.index})`);

function jobSetTable(items: JobSetPage['items']): string {
  return table(['SEQ', 'DECIDED', 'COMMAND', 'JOB', 'COMMAND ID'], items.map((c) => [`#${c.seq}`, c.at, c.type, c.name, c.commandId]));
}
