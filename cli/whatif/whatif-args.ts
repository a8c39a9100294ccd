import { ReplayError, EXIT_USAGE } from '../replay/replay-error.ts';

/** Where `jobfold whatif` reads the record: a FILE, a stored Job, or the stored fleet. */
export type WhatIfTarget =
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'job'; readonly cluster: string; readonly namespace: string; readonly name: string }
  | { readonly kind: 'fleet'; readonly cluster?: string; readonly namespace?: string; readonly since?: string };

export interface WhatIfArgs {
  readonly target: WhatIfTarget;
  readonly patch: unknown;
  readonly json: boolean;
  readonly endpoint: string;
}

export type ParsedWhatIfArgs = { readonly help: true } | ({ readonly help: false } & WhatIfArgs);

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:3000';

/** Reads the command line; a usage error throws a ReplayError with exit code 2. */
export function parseWhatIfArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): ParsedWhatIfArgs {
  let positional: string | undefined;
  let patchText: string | undefined;
  let json = false;
  let fleet = false;
  let endpoint = env['JOBFOLD_ENDPOINT'] ?? DEFAULT_ENDPOINT;
  let cluster: string | undefined;
  let namespace: string | undefined;
  let since: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const value = (): string => {
      const next = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (next === undefined) throw usage(`${flag} needs a value`);
      return next;
    };
    switch (flag) {
      case '-h':
      case '--help':
        return { help: true };
      case '--json':
        json = true;
        break;
      case '--fleet':
        fleet = true;
        break;
      case '--patch':
        patchText = value();
        break;
      case '--endpoint':
        endpoint = value().replace(/\/+$/, '');
        break;
      case '--cluster':
        cluster = value();
        break;
      case '-n':
      case '--namespace':
        namespace = value();
        break;
      case '--since':
        since = parseSince(value());
        break;
      default:
        if (flag.startsWith('-')) throw usage(`unknown option ${flag}`);
        if (positional !== undefined) throw usage(`one FILE or CLUSTER/NAMESPACE/NAME only (got ${positional} and ${arg})`);
        positional = arg;
    }
  }
  if (patchText === undefined) throw usage('missing --patch \'<JSON merge patch of the Job>\'');
  const patch = parsePatch(patchText);
  if (fleet) {
    if (positional !== undefined) throw usage(`--fleet reads every stored Job; drop ${positional}`);
    return { help: false, target: { kind: 'fleet', cluster, namespace, since }, patch, json, endpoint };
  }
  if (cluster !== undefined || namespace !== undefined || since !== undefined) throw usage('--cluster, -n and --since go with --fleet');
  if (positional === undefined) throw usage('missing FILE, CLUSTER/NAMESPACE/NAME or --fleet');
  return { help: false, target: targetOf(positional), patch, json, endpoint };
}

/** `a/b/c` names a stored Job unless a file of that name exists (checked by the caller). */
function targetOf(text: string): WhatIfTarget {
  const parts = text.split('/');
  const stored = parts.length === 3 && parts.every((p) => /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(p));
  if (stored) return { kind: 'job', cluster: parts[0] as string, namespace: parts[1] as string, name: parts[2] as string };
  return { kind: 'file', file: text };
}

function parsePatch(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw usage(`--patch: not valid JSON: ${(error as Error).message}`);
  }
}

/** `7d`, `12h`, `30m` or an RFC 3339 time; returned as the duration text or the time. */
function parseSince(text: string): string {
  if (/^\d+[dhm]$/.test(text) || !Number.isNaN(Date.parse(text))) return text;
  throw usage(`--since ${text}: expected a duration such as 7d, 12h, 30m, or an RFC 3339 time`);
}

const usage = (message: string) => new ReplayError(message, EXIT_USAGE);
