import { existsSync } from 'node:fs';
import { EMPTY_TALLY, mergeTallies, whatIfJob, WhatIfInputError, whatIfJobSet, WhatIfPatchError, type AnyWhatIfReport, type FleetTally } from '../shared/whatif/index.ts';
import { fleetWhatIfBlocks, printJson, printText, whatIfBlocks } from './print/index.ts';
import { EXIT_BAD_INPUT, EXIT_USAGE, ReplayError } from './replay/replay-error.ts';
import { parseWhatIfArgs, type WhatIfArgs } from './whatif/whatif-args.ts';
import { recordFromFile } from './whatif/whatif-file.ts';
import { WHATIF_HELP } from './whatif/whatif-help.ts';
import { ApiError, withRetries } from './client/api-client.ts';
import { whatIfFleetPage, whatIfRemote } from './whatif/whatif-remote.ts';

/** Where the command writes; `progress` only when stderr is a terminal. */
export interface WhatIfOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly progress?: (text: string) => void;
}

const EXIT_UNREACHABLE = 3;

const CONSOLE: WhatIfOutput = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  progress: process.stderr.isTTY ? (text) => process.stderr.write(`\r\x1b[2K${text}`) : undefined,
};

/** `jobfold whatif …`; resolves to the exit code. */
export async function whatIfCommand(argv: readonly string[], output: WhatIfOutput = CONSOLE, now: () => Date = () => new Date()): Promise<number> {
  try {
    const parsed = parseWhatIfArgs(argv, process.env);
    if (parsed.help) {
      output.out(WHATIF_HELP);
      return 0;
    }
    await run(parsed, output, now);
    return 0;
  } catch (error) {
    if (error instanceof ReplayError) {
      const hint = error.exitCode === EXIT_USAGE ? '\nRun "jobfold whatif --help" for the options.' : '';
      output.err(`jobfold whatif: ${error.message}${hint}`);
      return error.exitCode;
    }
    if (error instanceof WhatIfPatchError || error instanceof WhatIfInputError) {
      output.err(`jobfold whatif: ${error instanceof WhatIfPatchError ? 'the patched spec is invalid:\n  ' : ''}${error.message.split('; ').join('\n  ')}`);
      return EXIT_BAD_INPUT;
    }
    if (error instanceof ApiError) {
      output.err(`jobfold whatif: ${error.message}`);
      return error.status === undefined || error.status >= 500 ? EXIT_UNREACHABLE : EXIT_BAD_INPUT;
    }
    output.err(`jobfold whatif: internal error: ${(error as Error).message}`);
    return EXIT_BAD_INPUT;
  }
}

async function run(args: WhatIfArgs, output: WhatIfOutput, now: () => Date): Promise<void> {
  const target = args.target;
  if (target.kind === 'fleet') return fleet(args, output, now);
  // A path that exists is a FILE even when it looks like [jobset/]CLUSTER/NAMESPACE/NAME.
  const asFile = target.kind === 'file' ? target.file : [target.objectKind === 'JobSet' ? 'jobset' : undefined, target.cluster, target.namespace, target.name].filter(Boolean).join('/');
  const { report, title } =
    target.kind === 'file' || existsSync(asFile)
      ? await fromFile(asFile, args.patch)
      : { report: await whatIfRemote(args.endpoint, target, args.patch), title: `What-if for ${target.objectKind} ${target.namespace}/${target.name} in cluster ${target.cluster} (${args.endpoint})` };
  output.out(args.json ? printJson(report) : printText(whatIfBlocks(report, title)));
}

/** A FILE as `jobfold replay` reads it, refolded here. */
async function fromFile(file: string, patch: unknown): Promise<{ report: AnyWhatIfReport; title: string }> {
  const record = await recordFromFile(file);
  const report = record.kind === 'JobSet' ? whatIfJobSet({ log: record.log, patch }) : whatIfJob({ log: record.log, config: record.config, patch });
  return { report, title: record.title };
}

/** Parts of the parallel scan the fleet what-if reads side by side (one call chain each). */
const SEGMENTS = 4;

/**
 * Page by page: each page's tally is added and dropped, so memory holds the sums and the changed
 * Jobs. Without --since the logs are read by a parallel scan in SEGMENTS call chains; with it,
 * the Jobs are listed newest first and the walk stops at `since`. If a call fails part way, the
 * counts so far are printed marked partial, with a --resume token that continues the walk.
 */
async function fleet(args: WhatIfArgs, output: WhatIfOutput, now: () => Date): Promise<void> {
  if (args.target.kind !== 'fleet') return;
  const { cluster, namespace, since, resume, select, finished } = args.target;
  const sinceTime = since === undefined ? undefined : sinceToTime(since, now());
  // One cursor per chain: undefined (or '' in a token) to start, null once read to its end.
  const cursors: (string | null | undefined)[] = resume ?? (sinceTime === undefined ? Array(SEGMENTS).fill(undefined) : [undefined]);
  const scan = sinceTime === undefined;
  let tally: FleetTally = EMPTY_TALLY;
  let skippedBecause: string | undefined;
  const chain = async (i: number) => {
    while (cursors[i] !== null) {
      const cursor = cursors[i] || undefined;
      const segmenting = scan ? { segment: i, segments: cursors.length } : {};
      const page = await withRetries(() => whatIfFleetPage(args.endpoint, { patch: args.patch, cluster, namespace, since: sinceTime, cursor, ...select, ...(finished ? { finished } : {}), ...segmenting }));
      tally = mergeTallies(tally, page.tally);
      skippedBecause ??= page.skippedBecause;
      cursors[i] = page.nextCursor ?? null;
      output.progress?.(`what-if: ${tally.jobs} Jobs read, ${tally.changed.length} changed`);
    }
  };
  const chains = await Promise.allSettled(cursors.map((_, i) => chain(i)));
  output.progress?.('');
  const failed = chains.find((c): c is PromiseRejectedResult => c.status === 'rejected');
  const partial = failed === undefined ? {} : { partial: true, resume: Buffer.from(JSON.stringify(cursors.map((c) => c ?? (c === null ? null : '')))).toString('base64url') };
  output.out(args.json ? printJson({ ...tally, ...(skippedBecause ? { skippedBecause } : {}), ...partial }) : printText(fleetWhatIfBlocks(tally, skippedBecause)));
  if (failed !== undefined) {
    output.err(`jobfold whatif: PARTIAL: the counts above cover the ${tally.jobs} Jobs read before a call failed; add --resume ${partial.resume} (with the same --patch and filters) to read the rest and add its counts to these.`);
    throw failed.reason;
  }
}

/** `7d` / `12h` / `30m` before now, or the RFC 3339 time given. */
export function sinceToTime(since: string, now: Date): string {
  const match = /^(\d+)([dhm])$/.exec(since);
  if (!match) return new Date(Date.parse(since)).toISOString();
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000 }[match[2] as 'd' | 'h' | 'm'];
  return new Date(now.getTime() - Number(match[1]) * unit).toISOString();
}
