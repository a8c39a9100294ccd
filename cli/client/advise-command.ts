import { adviceView } from '../../shared/advise/view.ts';
import { adviseOver } from '../../shared/advise/walk.ts';
import { parseSelection, SelectionError, type SelectionText } from '../../shared/fleet/selection.ts';
import { adviceBlocks, printText } from '../print/index.ts';
import { sinceToTime } from '../whatif-command.ts';
import { ApiError, withRetries, type ApiClient } from './api-client.ts';
import { COMMON_OPTIONS, ENDPOINT_HELP, UsageError, clientFor, parse } from './client-options.ts';
import { machineOutput, parseOutput } from './render.ts';
import type { AdvicePort } from '../../shared/ports.ts';

export const ADVISE_HELP = `Usage: jobfold advise [--cluster C] [-n NS] [-l SELECTOR | --name-prefix P | --owner CronJob/NAME] [--since 7d] [-o json|yaml]

From the fleet's finished Jobs, the failure and success policies that would have saved the
most pod-hours, each checked Job by Job by the exact what-if (docs/advise.md). Jobs are grouped
into families (a CronJob's runs; Jobs named STEM-<generated suffix>; the same labels; the same
name); per family it proposes podFailurePolicy rules (FailJob or FailIndex on exit codes that
never succeeded on retry, Ignore on DisruptionTarget), backoffLimit and backoffLimitPerIndex
lowered to what successes needed, activeDeadlineSeconds from the successful runs (p99 x 1.5),
and a success policy on the leader of leader/worker Jobs. A proposal that harms any Job (a
success that would fail, an outcome settled later or past the evidence) is marked HARMFUL,
its Jobs listed, and never ranked above a harmless one. Each comes with its patch (YAML) and
the jobfold whatif --fleet command that reproduces its figures.

Options:
  --cluster C           only cluster C
  -n, --namespace NS    only namespace NS
  -l, --selector SEL    only Jobs whose labels match (app=etl,tier in (batch,ml),!canary)
  --name-prefix P       only Jobs whose name starts with P
  --owner KIND/NAME     only Jobs a CronJob (or other controller) owns: CronJob/nightly-etl
  --since D             only Jobs created in the last D (7d, 12h, 30m) or since an RFC 3339 time
  -o FORMAT             json or yaml
${ENDPOINT_HELP}
  -h, --help            this help`;

export async function adviseCommand(argv: readonly string[], now: () => Date = () => new Date()): Promise<string> {
  const { values, positionals } = parse(argv, {
    ...COMMON_OPTIONS,
    cluster: { type: 'string' },
    namespace: { type: 'string', short: 'n' },
    selector: { type: 'string', short: 'l' },
    'name-prefix': { type: 'string' },
    owner: { type: 'string' },
    since: { type: 'string' },
  });
  if (values.help) return `${ADVISE_HELP}\n`;
  if (positionals.length > 0) throw new UsageError(`advise takes no names (got ${positionals.join(' ')}); narrow it with --cluster, -n, -l, --name-prefix, --owner`);
  const format = parseOutput(values.output, ['json', 'yaml']);
  const since = values.since;
  if (since !== undefined && !/^\d+[dhm]$/.test(since) && Number.isNaN(Date.parse(since))) {
    throw new UsageError(`--since ${since}: expected a duration such as 7d, 12h, 30m, or an RFC 3339 time`);
  }
  const text: SelectionText = {
    ...(values.cluster !== undefined ? { cluster: values.cluster } : {}),
    ...(values.namespace !== undefined ? { namespace: values.namespace } : {}),
    ...(since !== undefined ? { since: sinceToTime(since, now()) } : {}),
    ...(values.selector !== undefined ? { selector: values.selector } : {}),
    ...(values['name-prefix'] !== undefined ? { namePrefix: values['name-prefix'] } : {}),
    ...(values.owner !== undefined ? { owner: values.owner } : {}),
  };
  let selection;
  try {
    selection = parseSelection(text);
  } catch (error) {
    if (error instanceof SelectionError) throw new UsageError(`--${error.field === 'namePrefix' ? 'name-prefix' : error.field}: ${error.message}`);
    throw error;
  }
  const client = clientFor(values.endpoint);
  const progress = process.stderr.isTTY ? (pass: string, jobs: number) => void process.stderr.write(`\r\x1b[2Kadvise: ${pass}, ${jobs} Jobs read`) : undefined;
  const advice = await adviseOver(apiPort(client), text, progress ? { progress } : {});
  if (progress) process.stderr.write('\r\x1b[2K');
  const view = adviceView(advice, selection);
  return format === 'json' || format === 'yaml' ? machineOutput(view, format) : `${printText(adviceBlocks(view))}\n`;
}

/** The two passes over the API; a call the service failed (5xx) or did not answer is tried twice more. */
export function apiPort(client: ApiClient): AdvicePort {
  return {
    evidencePage: (body) => withRetries(() => client.post('/v1/advise/evidence', body)),
    checkPage: (body) => withRetries(() => client.post('/v1/advise/check', body)),
  };
}
