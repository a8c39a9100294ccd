import { DEFAULT_ENDPOINT } from '../client/api-client.ts';
import { usageError as usage, walkArgs } from '../replay/walk-args.ts';

/** Where `jobfold whatif` reads the record: a FILE, a stored Job, or the stored fleet. */
export type WhatIfTarget =
  | { readonly kind: 'file'; readonly file: string }
  | { readonly kind: 'job'; readonly objectKind: 'Job' | 'JobSet'; readonly cluster: string; readonly namespace: string; readonly name: string }
  | {
      readonly kind: 'fleet';
      readonly cluster?: string;
      readonly namespace?: string;
      readonly since?: string;
      readonly resume?: (string | null)[];
      /** The rest of the fleet selection (shared/fleet/selection.ts), as text. */
      readonly select?: { readonly selector?: string; readonly namePrefix?: string; readonly owner?: string; readonly family?: string };
      readonly finished?: boolean;
    };

export interface WhatIfArgs {
  readonly target: WhatIfTarget;
  readonly patch: unknown;
  readonly json: boolean;
  readonly endpoint: string;
}

export type ParsedWhatIfArgs = { readonly help: true } | ({ readonly help: false } & WhatIfArgs);


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
  let resume: (string | null)[] | undefined;
  const select: { selector?: string; namePrefix?: string; owner?: string; family?: string } = {};
  let finished = false;
  const help = walkArgs(argv, ({ flag, arg, value }) => {
    switch (flag) {
      case '--json':
        json = true;
        return;
      case '--fleet':
        fleet = true;
        return;
      case '--patch':
        patchText = value();
        return;
      case '--endpoint':
        endpoint = value().replace(/\/+$/, '');
        return;
      case '--cluster':
        cluster = value();
        return;
      case '-n':
      case '--namespace':
        namespace = value();
        return;
      case '--since':
        since = parseSince(value());
        return;
      case '--resume':
        resume = parseResume(value());
        return;
      case '-l':
      case '--selector':
        select.selector = value();
        return;
      case '--name-prefix':
        select.namePrefix = value();
        return;
      case '--owner':
        select.owner = value();
        return;
      case '--family':
        select.family = value();
        return;
      case '--finished':
        finished = true;
        return;
      default:
        if (flag.startsWith('-')) throw usage(`unknown option ${flag}`);
        if (positional !== undefined) throw usage(`one FILE or [jobset/]CLUSTER/NAMESPACE/NAME only (got ${positional} and ${arg})`);
        positional = arg;
    }
  });
  if (help) return { help: true };
  if (patchText === undefined) throw usage('missing --patch \'<JSON merge patch of the Job or JobSet>\'');
  const patch = parsePatch(patchText);
  if (fleet) {
    if (positional !== undefined) throw usage(`--fleet reads every stored Job; drop ${positional}`);
    const selecting = Object.keys(select).length > 0 ? { select } : {};
    return { help: false, target: { kind: 'fleet', cluster, namespace, since, ...(resume ? { resume } : {}), ...selecting, ...(finished ? { finished } : {}) }, patch, json, endpoint };
  }
  if (cluster !== undefined || namespace !== undefined || since !== undefined || resume !== undefined || finished || Object.keys(select).length > 0) {
    throw usage('--cluster, -n, --since, -l, --name-prefix, --owner, --family, --finished and --resume go with --fleet');
  }
  if (positional === undefined) throw usage('missing FILE, [jobset/]CLUSTER/NAMESPACE/NAME or --fleet');
  return { help: false, target: targetOf(positional), patch, json, endpoint };
}

/**
 * `C/NS/NAME` (or `job/C/NS/NAME`) names a stored Job and `jobset/C/NS/NAME` a stored JobSet,
 * unless a file of that name exists (checked by the caller).
 */
function targetOf(text: string): WhatIfTarget {
  const parts = text.split('/');
  const prefix = parts.length === 4 ? parts.shift() : undefined;
  const objectKind = prefix === 'jobset' ? 'JobSet' : 'Job';
  const stored = (prefix === undefined || prefix === 'job' || prefix === 'jobset') && parts.length === 3 && parts.every((p) => /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/.test(p));
  if (stored) return { kind: 'job', objectKind, cluster: parts[0] as string, namespace: parts[1] as string, name: parts[2] as string };
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


/** The token a partial fleet what-if printed: where each of its call chains stopped. */
function parseResume(text: string): (string | null)[] {
  try {
    const cursors: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(cursors) && cursors.length > 0 && cursors.every((c) => c === null || typeof c === 'string')) return cursors;
  } catch {
    // reported below
  }
  throw usage('--resume: not a token a partial "jobfold whatif --fleet" printed');
}
