import { setTimeout as sleep } from 'node:timers/promises';
import type { ApiClient } from './api-client.ts';
import { ENDPOINT_HELP, OBJECT_OPTIONS, objectOptionsHelp, UsageError, clientFor, kindOf, objectPath, parse } from './client-options.ts';
import { machineOutput, parseOutput, table } from './render.ts';

export const HISTORY_HELP = `Usage: jobfold history job|jobset NAME --cluster C [-n NS] [--follow] [--uid UID] [-o json|yaml]

The object's log, oldest first: every observation, decision and command, with its log
position (#N, what \`status --at #N\` and the explanation's "event #N" refer to).

Options:
  -f, --follow          keep printing new entries as they are logged (Ctrl-C stops)
${objectOptionsHelp('object')}
  -o FORMAT             json or yaml (with --follow: one JSON object per line)
${ENDPOINT_HELP}
  -h, --help            this help`;

const FOLLOW_EVERY_MS = 2000;

interface Entry { seq: number; eventId: string; type: string; category: string; observedAt?: string; at?: string; recordedAt: string; body: Record<string, unknown> }
interface Page { object: unknown; head: number; entries: Entry[]; nextAfter?: number }

export async function historyCommand(argv: readonly string[], write: (text: string) => void): Promise<void> {
  const { values, positionals } = parse(argv, { ...OBJECT_OPTIONS, follow: { type: 'boolean', short: 'f', default: false } });
  if (values.help) return write(`${HISTORY_HELP}\n`);
  if (positionals.length > 2) throw new UsageError(`one object at a time: ${positionals.slice(2).join(' ')}`);
  const path = `${objectPath(kindOf(positionals[0], ['job', 'jobset']), positionals[1], values.cluster, values.namespace)}/history`;
  const format = parseOutput(values.output, ['table', 'json', 'yaml']);
  if (values.follow && format === 'yaml') throw new UsageError('--follow prints JSON lines or a table: use -o json or no -o');
  const client = clientFor(values.endpoint);
  const { entries, after } = await readFrom(client, path, values.uid, 0);
  if (!values.follow) {
    write(format === 'json' || format === 'yaml' ? machineOutput({ entries }, format) : entryTable(entries, true));
    return;
  }
  const print = (batch: Entry[], header: boolean) => {
    if (batch.length === 0) return;
    write(format === 'json' ? batch.map((e) => `${JSON.stringify(e)}\n`).join('') : entryTable(batch, header));
  };
  print(entries, true);
  for (let seen = after; ;) {
    await sleep(FOLLOW_EVERY_MS);
    const next = await readFrom(client, path, values.uid, seen);
    print(next.entries, false);
    seen = next.after;
  }
}

/** Every entry after `after`, all pages followed. */
async function readFrom(client: ApiClient, path: string, uid: string | undefined, after: number): Promise<{ entries: Entry[]; after: number }> {
  const entries: Entry[] = [];
  let position = after;
  for (;;) {
    const page = await client.get<Page>(path, { uid, after: String(position), limit: '500' });
    entries.push(...page.entries);
    position = page.entries.at(-1)?.seq ?? position;
    if (page.nextAfter === undefined) return { entries, after: position };
  }
}

function entryTable(entries: readonly Entry[], header: boolean): string {
  const rows = entries.map((e) => [`#${e.seq}`, e.observedAt ?? e.at ?? '', e.category, e.type, summary(e)]);
  const text = table(['SEQ', 'TIME', 'CATEGORY', 'TYPE', 'WHAT'], rows);
  return header ? text : text.slice(text.indexOf('\n') + 1);
}

/** One line on what the entry is about: the object and its phase, the condition, the pods, the count. */
function summary(entry: Entry): string {
  const body = entry.body;
  type Observed = { metadata?: { name?: string }; status?: { phase?: string } };
  const object = (body['pod'] ?? body['job'] ?? body['jobSet'] ?? body['object']) as Observed | undefined;
  const condition = body['condition'] as { type?: string; status?: string; reason?: string } | undefined;
  if (condition?.type) return `${condition.type}=${condition.status ?? ''} (${condition.reason ?? ''})`;
  if (object?.metadata?.name) return `${object.metadata.name}${object.status?.phase ? ` ${object.status.phase}` : ''}`;
  const pods = body['pods'] as Array<{ name?: string }> | undefined;
  if (Array.isArray(pods)) return pods.map((p) => p.name ?? '?').join(', ');
  const fields = Object.entries(body).filter(([k, v]) => !['type', 'eventId', 'at', 'clusterId', 'observedAt'].includes(k) && typeof v !== 'object');
  return fields.map(([k, v]) => `${k}=${String(v)}`).join(' ') || entry.eventId;
}
