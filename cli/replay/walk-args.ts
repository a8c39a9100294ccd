import { EXIT_USAGE, ReplayError } from './replay-error.ts';

/** What one command-line word is: a flag (with a way to take its value), or a positional. */
export interface ArgWord {
  /** `--patch` for `--patch X` and `--patch=X`; the word itself for a short flag or a positional. */
  readonly flag: string;
  readonly arg: string;
  /** The flag's value: the text after `=`, or the next word (a usage error when there is none). */
  readonly value: () => string;
}

/**
 * Walks `argv` for `jobfold replay` and `jobfold whatif`, which read their flags the same way:
 * `--name value` or `--name=value`, single-dash flags whole, and positionals. `-h`/`--help` ends
 * the walk: the result is true when help was asked for.
 */
export function walkArgs(argv: readonly string[], visit: (word: ArgWord) => void): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = eq < 0 ? arg : arg.slice(0, eq);
    const value = (): string => {
      const next = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (next === undefined) throw usageError(`${flag} needs a value`);
      return next;
    };
    if (flag === '-h' || flag === '--help') return true;
    visit({ flag, arg, value });
  }
  return false;
}

export const usageError = (message: string) => new ReplayError(message, EXIT_USAGE);
