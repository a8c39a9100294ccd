import { explain, type AnyExplanation } from '../print/index.ts';
import { ENDPOINT_HELP, OBJECT_OPTIONS, objectOptionsHelp, UsageError, clientFor, kindOf, objectPath, parse } from './client-options.ts';
import { machineOutput, parseOutput } from './render.ts';

export const EXPLAIN_HELP = `Usage: jobfold explain job|jobset NAME --cluster C [-n NS] [--uid UID] [-o json|yaml]

Why the Job or JobSet stands where it does: each condition with the rule that set it and the
evidence in its log (event #N = log position), the pods jobfold terminated and why.

Options:
${objectOptionsHelp('object')}
  -o FORMAT             json or yaml
${ENDPOINT_HELP}
  -h, --help            this help`;

export async function explainCommand(argv: readonly string[]): Promise<string> {
  const { values, positionals } = parse(argv, OBJECT_OPTIONS);
  if (values.help) return `${EXPLAIN_HELP}\n`;
  if (positionals.length > 2) throw new UsageError(`one object at a time: ${positionals.slice(2).join(' ')}`);
  const kind = kindOf(positionals[0], ['job', 'jobset']);
  const path = objectPath(kind, positionals[1], values.cluster, values.namespace);
  const format = parseOutput(values.output, ['table', 'json', 'yaml']);
  const explanation = await clientFor(values.endpoint).get<AnyExplanation>(`${path}/explain`, { uid: values.uid });
  if (format === 'json' || format === 'yaml') return machineOutput(explanation, format);
  // The kind asked for, also from a service older than the explanation's `kind`.
  return `${explain({ ...explanation, kind: kind === 'job' ? 'Job' : 'JobSet' } as AnyExplanation)}\n`;
}
