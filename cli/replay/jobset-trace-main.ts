import { EXIT_INTERNAL, replayJobSetTrace } from './jobset-replay.ts';
import { parseReplayArgs } from './replay-args.ts';
import { EXIT_BAD_INPUT, ReplayError } from './replay-error.ts';

// The child process of `jobfold replay` for JobSet traces (see jobset-replay.ts): replays the
// trace through the service and prints the description, or one error line and its exit code.

try {
  const args = parseReplayArgs(process.argv.slice(2));
  if (args.help) throw new ReplayError('--help is answered by jobfold replay itself', EXIT_BAD_INPUT);
  process.stdout.write(`${await replayJobSetTrace(args)}\n`);
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = error instanceof ReplayError ? error.exitCode : EXIT_INTERNAL;
}
