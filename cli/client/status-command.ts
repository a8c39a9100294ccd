import type * as z from 'zod';
import type { StatusAtSchema } from '../../functions/query/schemas/job-schemas.ts';
import { field, printText, table, type Block } from '../print/index.ts';
import { ENDPOINT_HELP, OBJECT_OPTIONS, objectOptionsHelp, UsageError, clientFor, kindOf, objectPath, parse } from './client-options.ts';
import { machineOutput, parseOutput } from './render.ts';

export const STATUS_HELP = `Usage: jobfold status job NAME --cluster C [-n NS] [--at TIME|#N] [--uid UID] [-o json|yaml]

The Job's status at a point of its history, folded by the service: after log entry #N, or
after every entry recorded by TIME (RFC 3339). Default: now (the head of the log).

Options:
  --at TIME|#N          2026-01-01T00:05:00Z, or #42 (also 42): the log position
${objectOptionsHelp('Job')}
  -o FORMAT             json or yaml
${ENDPOINT_HELP}
  -h, --help            this help`;

type StatusAt = z.output<typeof StatusAtSchema>;

export async function statusCommand(argv: readonly string[]): Promise<string> {
  const { values, positionals } = parse(argv, { ...OBJECT_OPTIONS, at: { type: 'string' } });
  if (values.help) return `${STATUS_HELP}\n`;
  if (positionals.length > 2) throw new UsageError(`one Job at a time: ${positionals.slice(2).join(' ')}`);
  const path = objectPath(kindOf(positionals[0], ['job']), positionals[1], values.cluster, values.namespace);
  const format = parseOutput(values.output, ['table', 'json', 'yaml']);
  const at = values.at?.replace(/^#/, '');
  const result = await clientFor(values.endpoint).get<StatusAt>(`${path}/status`, { uid: values.uid, at });
  if (format === 'json' || format === 'yaml') return machineOutput(result, format);
  const { status } = result;
  const blocks: Block[] = [
    field('At', `#${result.at.seq} of ${result.head}${result.at.recordedAt ? ` (recorded ${result.at.recordedAt})` : ''}`),
    field('Outcome', result.outcome),
    field('Pods Statuses', `${status.active} Active (${status.ready} Ready) / ${status.succeeded} Succeeded / ${status.failed} Failed / ${status.terminating} Terminating`),
  ];
  if (status.startTime) blocks.push(field('Start Time', status.startTime));
  if (status.completionTime) blocks.push(field('Completed At', status.completionTime));
  if (status.completedIndexes) blocks.push(field('Completed Indexes', status.completedIndexes));
  if (status.failedIndexes) blocks.push(field('Failed Indexes', status.failedIndexes));
  blocks.push(table('Conditions', ['Type', 'Status', 'Reason', 'Message'], status.conditions.map((c) => [c.type, c.status, c.reason, c.message])));
  return `${printText({ blocks, labelWidth: 20 })}\n`;
}
