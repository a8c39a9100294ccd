import { JOBFOLD_DEFAULT_GATES, type FeatureGates } from '../../shared/job/index.ts';
import { usageError as usage, walkArgs } from './walk-args.ts';

/** The options of `jobfold replay`. */
export interface ReplayArgs {
  readonly file: string;
  readonly json: boolean;
  /** Scenario: 0-based event index; JSONL: 1-based file line. */
  readonly at: number | undefined;
  readonly gates: Partial<FeatureGates>;
}

export type ParsedReplayArgs = { readonly help: true } | ({ readonly help: false } & ReplayArgs);

export const KNOWN_GATES = Object.keys(JOBFOLD_DEFAULT_GATES) as (keyof FeatureGates)[];

/** Reads the command line; a usage error throws a ReplayError with exit code 2. */
export function parseReplayArgs(argv: readonly string[]): ParsedReplayArgs {
  let file: string | undefined;
  let json = false;
  let at: number | undefined;
  const gates: Partial<Record<keyof FeatureGates, boolean>> = {};
  const help = walkArgs(argv, ({ flag, arg, value }) => {
    switch (flag) {
      case '--json':
        json = true;
        return;
      case '--at':
        at = parseAt(value());
        return;
      case '--gate': {
        const [name, setting] = parseGate(value());
        gates[name] = setting;
        return;
      }
      default:
        if (flag.startsWith('-') && flag !== '-') throw usage(`unknown option ${flag}`);
        if (file !== undefined) throw usage(`one FILE only (got ${file} and ${arg})`);
        file = arg;
    }
  });
  if (help) return { help: true };
  if (file === undefined) throw usage('missing FILE');
  return { help: false, file, json, at, gates };
}

function parseAt(text: string): number {
  if (!/^\d+$/.test(text)) throw usage(`--at ${text}: expected a non-negative integer`);
  return Number(text);
}

function parseGate(text: string): [keyof FeatureGates, boolean] {
  const [name, setting] = splitOnce(text);
  if (!(KNOWN_GATES as string[]).includes(name)) {
    throw usage(`--gate ${text}: unknown feature gate ${name} (known: ${KNOWN_GATES.join(', ')})`);
  }
  if (setting !== 'true' && setting !== 'false') throw usage(`--gate ${text}: expected ${name}=true or ${name}=false`);
  return [name as keyof FeatureGates, setting === 'true'];
}

function splitOnce(text: string): [string, string | undefined] {
  const at = text.indexOf('=');
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

