import { parseArgs } from 'node:util';
import { runScaleDown, type ScaleDownFigures } from '../test/forwarder/scale-down.ts';

// The forwarder's guards at the size users run (issue 21; docs/forwarder.md, "Applying
// commands"): a managed Job of N running pods scaled down by `commands` pods, whose
// `TerminatePod` commands (cause ExcessPods, each re-checked against the live Job and pods by the
// deletion guard) the forwarder's command consumer applies from SQS against the API server. The
// fakes are the forwarder specs' (test/forwarder/fake-kube-api.ts, fake-sqs.ts) in this process;
// the consumer, its kube client and its SQS client are the deployed ones (test/forwarder/scale-down.ts). Figures, never
// assertions: pod list requests (every page counts) and pods the API server served to lists,
// per command; pods deleted; seconds.
// Run: `node bench/guard-lists.ts [--pods 1000,100000] [--commands 200] [--json]`. Not part of
// `npm run bench`.

const USAGE = 'Usage: node bench/guard-lists.ts [--pods N1,N2 (default 1000,100000)] [--commands N (default 200)] [--max-age-ms MS (default 10000, as deployed)] [--watch (the pod watch up: the guards read it)] [--json]';


if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: { pods: { type: 'string', default: '1000,100000' }, commands: { type: 'string', default: '200' }, 'max-age-ms': { type: 'string' }, watch: { type: 'boolean', default: false }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const sizes = values.pods.split(',').map(Number);
  const commands = Number(values.commands);
  const maxAgeMs = values['max-age-ms'] === undefined ? undefined : Number(values['max-age-ms']);
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1) || !Number.isSafeInteger(commands) || commands < 1 || sizes.some((n) => n <= commands)) {
    process.stderr.write(`${USAGE}\n(--commands must be below every --pods)\n`);
    process.exit(2);
  }
  const results: ScaleDownFigures[] = [];
  for (const pods of sizes) {
    const figures = await runScaleDown(pods, commands, { ...(maxAgeMs === undefined ? {} : { maxAgeMs }), watch: values.watch });
    results.push(figures);
    if (!values.json) {
      process.stdout.write(
        `${pods} pods, ${commands} TerminatePod (ExcessPods)${values.watch ? ', pod watch up' : ''}: ${figures.watchReads} watch reads (${figures.versionReads} one-pod version reads), ${figures.lists} lists, ${figures.podListRequests} pod list requests (${figures.podListRequestsPerCommand} a command), ` +
          `${figures.podsServed} pods read (${figures.podsReadPerCommand} a command), ${figures.deleted} deleted, ${figures.refused} refused, ${figures.seconds} s\n`,
      );
    }
  }
  if (values.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
}
