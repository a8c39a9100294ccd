import { readFileSync } from 'node:fs';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readSettings } from './settings.ts';
import { ServiceStack } from './stacks/service-stack.ts';
import { StatefulStack } from './stacks/stateful-stack.ts';

/**
 * The jobfold CDK app: `npx cdk synth` / `npx cdk deploy --all -c clusters=a,b`, or without the
 * CLI `CDK_OUTDIR=cdk.out node cdk/app.ts`. The stacks are
 * environment-agnostic (no account or region, no lookups), so synth needs no credentials; the
 * CLI's profile decides where they deploy. cdk-nag's AwsSolutions pack checks every synth and
 * fails it on a finding not acknowledged in code (the acknowledgements carry their reasons and
 * are copied into the template metadata for reviewers).
 */
export function buildApp(app: App = new App()): { app: App; stateful: StatefulStack; service: ServiceStack } {
  const settings = readSettings((key) => app.node.tryGetContext(key));
  const stateful = new StatefulStack(app, 'jobfold-stateful', {
    description: 'jobfold: the event table (logs, snapshots, summaries, outbox)',
  });
  const service = new ServiceStack(app, 'jobfold-service', {
    description: 'jobfold: bus, functions, timers, query API, cluster connections, alarms',
    table: stateful.table,
    settings,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app, { writeSuppressionsToCloudFormation: true }));
  return { app, stateful, service };
}

if (import.meta.main) {
  // The CLI passes cdk.json's context itself; reading it here as defaults makes a direct
  // `node cdk/app.ts` (with CDK_OUTDIR) synthesize the same templates, feature flags included.
  const cdkJson = JSON.parse(readFileSync(new URL('../cdk.json', import.meta.url), 'utf8')) as { context?: Record<string, unknown> };
  buildApp(new App({ context: cdkJson.context ?? {} })).app.synth();
}
