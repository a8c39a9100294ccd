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
