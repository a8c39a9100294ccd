import { formatProblem, type JsonlProblem } from '../../shared/contract/jsonl-trace.ts';

/** Exit codes of `jobfold replay`: bad input (file, JSON, fields) and usage. */
export const EXIT_BAD_INPUT = 1;
export const EXIT_USAGE = 2;

/** An error to show the user as it is (no stack trace), and the exit code it ends with. */
export class ReplayError extends Error {
  readonly exitCode: typeof EXIT_BAD_INPUT | typeof EXIT_USAGE;

  constructor(message: string, exitCode: typeof EXIT_BAD_INPUT | typeof EXIT_USAGE) {
    super(message);
    this.name = 'ReplayError';
    this.exitCode = exitCode;
  }
}

/** The most problems reported at once; more only bury the first. */
export const MAX_PROBLEMS = 20;

/** Every problem of a JSONL file as `FILE:LINE: field: message`, at most MAX_PROBLEMS of them. */
export function problemsError(file: string, problems: readonly JsonlProblem[]): ReplayError {
  const shown = problems.slice(0, MAX_PROBLEMS).map((problem) => formatProblem(file, problem));
  const more = problems.length - shown.length;
  return new ReplayError([...shown, ...(more > 0 ? [`… and ${more} more`] : [])].join('\n'), EXIT_BAD_INPUT);
}
