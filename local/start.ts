import './quiet-powertools.ts';
import { relative } from 'node:path';
import { hasJava, JAVA_REQUIRED_MESSAGE } from './dynamodb-local.ts';
import { startLocalStack, type LocalStack } from './local-stack.ts';
import { fleetReport, printText } from '../cli/print/index.ts';
import { UsageError } from '../cli/client/client-options.ts';
import { parseStartArgs, START_HELP, type StartArgs } from './start-args.ts';
import { TraceError } from '../shared/contract/jsonl-trace.ts';
import { conditionLine, tryLines } from './start-output.ts';

// `npm start`: jobfold on this machine (local/local-stack.ts), fed the sample fleet trace or
// `--replay FILE`, with what was decided printed once the system is quiet. Ctrl-C stops it all.

const EXIT_USAGE = 2;

async function main(): Promise<number> {
  let args: StartArgs;
  try {
    args = parseStartArgs(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`npm start: ${error.message}\n\n${START_HELP}`);
    return EXIT_USAGE;
  }
  if (args.help) {
    console.log(START_HELP);
    return 0;
  }
  if (args.dynamodb === undefined && !hasJava()) {
    console.error(JAVA_REQUIRED_MESSAGE); // one line, before anything starts
    return 1;
  }
  const storage = args.data === undefined ? 'in memory' : `kept in ${args.data}`;
  const database = args.dynamodb === undefined ? `DynamoDB Local (${storage})` : `on the DynamoDB at ${args.dynamodb}`;
  console.log(`jobfold local: starting ${database} and the functions …`);
  let stack: LocalStack;
  try {
    stack = await startLocalStack({
      port: args.port, sample: args.sample, replay: args.replay, pace: { speed: args.speed }, progress: true,
      ...(args.data === undefined ? {} : { dataDir: args.data }),
      ...(args.dynamodb === undefined ? {} : { dynamoDbEndpoint: args.dynamodb }),
    });
  } catch (error) {
    const message = (error as Error).message;
    if (message === JAVA_REQUIRED_MESSAGE) console.error(message);
    else if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') console.error(`port ${args.port} is in use: pass --port N or set PORT`);
    else if (error instanceof TraceError) console.error(message);
    else throw error;
    return error instanceof TraceError ? EXIT_USAGE : 1;
  }
  const signals = onSignals(stack);
  // DynamoDB Local died and cannot come back (in memory, or it would not start again): exit non-zero.
  void stack.failed.then(async (reason) => {
    console.error(`jobfold local: ${reason}`);
    await stack.stop();
    process.exit(1);
  });
  const started = Date.now();
  console.log(`jobfold local: serving at ${stack.url}  (DynamoDB Local ${stack.dynamoDbEndpoint}, table ${stack.tableName})`);
  console.log(`  PutEvents  POST ${stack.eventsUrl}     query API  GET ${stack.url}/v1/jobs`);
  console.log(`  commands   GET  ${stack.url}/local/clusters/{clusterId}/commands     rejected  GET ${stack.url}/local/rejected`);
  if (stack.dataDir !== undefined) {
    const redriven = stack.redriven > 0 ? `; ${stack.redriven} dead-lettered records written again` : '';
    console.log(`  data       ${stack.dataDir}: ${stack.resumedObjects} unfinished Jobs and JobSets found, pending work resumed${redriven}`);
  }
  if (stack.alreadyFed) console.log(`\n${shortPath(stack.alreadyFed)} was fed into ${stack.dataDir} before: not fed again.`);
  if (stack.refeeding) console.log(`\nThe previous run stopped while feeding; feeding it again (events already stored are dropped as duplicates).`);
  stack.bus.subscribe((event) => {
    const line = conditionLine(event, started);
    if (line) console.log(line);
  });
  if (stack.trace && stack.traceInfo) {
    const { file, events, seconds } = stack.traceInfo;
    console.log(`\nFeeding ${shortPath(file)}: ${events} events over ${seconds.toFixed(1)} s (times moved to now, gaps ÷${args.speed}) …`);
    const outcome = await stack.trace.catch((error: unknown) => {
      if (!signals.received) console.error(`jobfold local: the trace could not be decided: ${(error as Error).message}`);
      return undefined;
    });
    if (signals.received) return signals.stopped; // Ctrl-C while feeding
    if (outcome === undefined) {
      if (args.exit) {
        await stack.stop();
        return 1;
      }
      return signals.stopped;
    }
    console.log(`\n${printText(fleetReport(outcome.decided))}`);
    const refused = stack.rejected().length + outcome.feed.failed.length;
    if (refused > 0) console.log(`\nRefused: ${refused} ${refused === 1 ? 'event' : 'events'}, with reasons at GET ${stack.url}/local/rejected`);
    if (!args.exit) console.log(`\n${tryLines(stack, outcome.decided).join('\n')}`);
  }
  if (args.exit) {
    if (stack.dataDir !== undefined) await stack.whenQuiet(); // the resumed work, when nothing was fed
    await stack.stop();
    return 0;
  }
  console.log(`\njobfold local: waiting for events at ${stack.eventsUrl}; Ctrl-C stops.`);
  return signals.stopped;
}

/**
 * On SIGINT or SIGTERM, stops everything; `stopped` then resolves with the exit code. A second
 * signal exits at once (DynamoDB Local's watchdog still kills Java).
 */
function onSignals(stack: LocalStack): { readonly received: boolean; readonly stopped: Promise<number> } {
  let received = false;
  const stopped = new Promise<number>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      received = true;
      process.once(signal, () => process.exit(130));
      console.log(`\njobfold local: ${signal}, stopping …`);
      void stack.stop().then(() => {
        console.log('jobfold local: stopped (server, timers, DynamoDB Local).');
        resolve(0);
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return { get received() { return received; }, stopped };
}

/** Relative to the working directory when inside it, else absolute. */
function shortPath(file: string): string {
  const path = relative(process.cwd(), file);
  return path.startsWith('..') ? file : path;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
