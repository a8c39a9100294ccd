import { parseArgs } from 'node:util';
import { UsageError } from '../cli/client/client-options.ts';

export const START_HELP = `Usage: npm start [-- options]

Runs jobfold on this machine: DynamoDB Local (Java 17+; in memory, or kept with --data), the ingest
stream and its writer, the publisher, the timers, the dead-letter triage, and one HTTP server on 127.0.0.1:
  POST /events                          EventBridge PutEvents (SDK endpoint: http://127.0.0.1:PORT/events)
  POST /sqs                             SQS: the clusters' command queues, for forwarders
  GET  /v1/...                          the query API (GET /v1/jobs, /v1/openapi.json, ...)
  GET  /local/clusters/{id}/commands    commands published for a cluster
  GET  /local/rejected                  refused events, with reasons
With no options it feeds the sample fleet trace (samples/fleet.jsonl), prints what was
decided, and keeps serving until Ctrl-C.

Options:
  --port N        listen on port N (default 3000, or the PORT environment variable)
  --data DIR      keep the database, the events accepted but not yet written, the command
                  queues and the record of fed traces in DIR: started again on the same DIR,
                  every Job is there, work left pending is resumed, and a trace already fed
                  (the sample fleet too) is not fed again
  --dynamodb URL  use the DynamoDB (Local) at URL instead of starting DynamoDB Local; with
                  --data, DIR keeps all the rest (the database lives at URL)
  --replay FILE   feed FILE (JSONL, one PutEvents entry per line) instead of the sample
  --no-sample     feed nothing; wait for events at /events
  --speed N       play the trace N times faster than recorded (default 10; 1 = real time)
  --exit          exit once the trace is decided (for scripts and tests)
  --help          show this help

Trace times are moved to now: the first event is fed at once, each gap is divided by the
speed and capped at 5 s, and every timestamp in the events moves along (docs/local.md).`;

export interface StartArgs {
  readonly port: number;
  readonly data: string | undefined;
  /** A DynamoDB (Local) endpoint to use instead of starting DynamoDB Local. */
  readonly dynamodb: string | undefined;
  readonly replay: string | undefined;
  readonly sample: boolean;
  readonly speed: number;
  readonly exit: boolean;
  readonly help: boolean;
}

/** Parses `npm start` arguments; PORT (environment) replaces the default port, --port wins over both. */
export function parseStartArgs(argv: readonly string[], env: Record<string, string | undefined>): StartArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        port: { type: 'string' },
        data: { type: 'string' },
        dynamodb: { type: 'string' },
        replay: { type: 'string' },
        'no-sample': { type: 'boolean', default: false },
        speed: { type: 'string' },
        exit: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const port = integer('--port', values.port ?? env['PORT'] ?? '3000', 0, 65535);
  const speed = Number(values.speed ?? '10');
  if (!Number.isFinite(speed) || speed <= 0) throw new UsageError(`--speed must be a positive number, not "${values.speed}"`);
  if (values.replay !== undefined && values['no-sample']) throw new UsageError('--replay and --no-sample exclude each other');
  if (values.data !== undefined && values.data.trim() === '') throw new UsageError('--data needs a directory');
  if (values.dynamodb !== undefined && !/^https?:\/\/[^\s/]+/.test(values.dynamodb)) {
    throw new UsageError(`--dynamodb needs an http(s) URL, not "${values.dynamodb}"`);
  }
  return {
    port,
    data: values.data,
    dynamodb: values.dynamodb,
    replay: values.replay,
    sample: values.replay === undefined && !values['no-sample'],
    speed,
    exit: values.exit,
    help: values.help,
  };
}

function integer(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text.trim()) || value < min || value > max) {
    throw new UsageError(`${name} (or PORT) must be an integer from ${min} to ${max}, not "${text}"`);
  }
  return value;
}
