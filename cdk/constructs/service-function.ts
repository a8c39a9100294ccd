import { fileURLToPath } from 'node:url';
import { Duration } from 'aws-cdk-lib';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, type IDestination } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { INDEX } from '../../functions/adapters/table-layout.ts';

/** The repository root: esbuild's working directory, and where package-lock.json pins versions. */
const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Powertools reads these; the metric namespace is what the alarms and the dashboard query. */
export const POWERTOOLS_ENVIRONMENT = {
  POWERTOOLS_SERVICE_NAME: 'jobfold',
  POWERTOOLS_METRICS_NAMESPACE: 'jobfold',
  POWERTOOLS_LOG_LEVEL: 'INFO',
} as const;

export const LOG_RETENTION = RetentionDays.ONE_MONTH;

// The handlers and their dependencies (middy 7, Powertools, zod 4) are ESM; a few transitive
// dependencies are CommonJS and call require() for Node built-ins, which an ESM bundle only
// has through createRequire.
const ESM_REQUIRE_BANNER = "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

// node:http and node:https reach the bundle as CommonJS values (cdk/bundling/node-http.cjs):
// imported as ESM they get a module facade that loads undici, ~50 ms of the writer's init CPU.
// The SDK's default credential chain is its first link only, the environment Lambda sets
// (cdk/bundling/lambda-credentials.ts): its other links cost ~40 ms of the writer's init CPU.
const BUNDLE_ALIASES = [
  ...['http', 'https'].flatMap((name) => {
    const shim = fileURLToPath(new URL(`../bundling/node-${name}.cjs`, import.meta.url));
    return [`${name}=${shim}`, `node:${name}=${shim}`];
  }),
  `@aws-sdk/credential-provider-node=${fileURLToPath(new URL('../bundling/lambda-credentials.ts', import.meta.url))}`,
];

export interface ServiceFunctionProps {
  /** Handler file under functions/, without extension: `ingest` → functions/ingest.ts. */
  readonly entry: string;
  readonly description: string;
  readonly timeout: Duration;
  readonly memorySize?: number;
  readonly environment?: Readonly<Record<string, string>>;
  /** For functions invoked asynchronously (EventBridge, Scheduler): where failed events go. */
  readonly onFailure?: IDestination;
}

/**
 * A handler as deployed: Node 24 on ARM64, bundled to one ESM file by the local esbuild
 * (no Docker), its own log group with a retention, its own role (no AWS managed policy: the
 * role may write to its log group and do nothing else until granted).
 */
export class ServiceFunction extends NodejsFunction {
  /** The function's own role (`role` on a Function is optional; this one always exists). */
  readonly serviceRole: Role;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: LOG_RETENTION });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `jobfold ${props.entry} function`,
    });
    super(scope, id, {
      entry: fileURLToPath(new URL(`../../functions/${props.entry}.ts`, import.meta.url)),
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: fileURLToPath(new URL('../../package-lock.json', import.meta.url)),
      description: props.description,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout,
      role,
      logGroup,
      // No NODE_OPTIONS=--enable-source-maps: with it, Node reads and parses the bundle's source
      // map at every cold start (~15% of the writer's init CPU, bench/cold-start.ts). The map is
      // still in the asset: a stack trace from the logs is decoded with it (docs/deploy.md).
      environment: { ...POWERTOOLS_ENVIRONMENT, ...props.environment },
      ...(props.onFailure ? { onFailure: props.onFailure, retryAttempts: 2, maxEventAge: Duration.hours(1) } : {}),
      bundling: {
        format: OutputFormat.ESM,
        target: 'node24',
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        minify: true,
        sourceMap: true,
        sourcesContent: false,
        // Ship the SDK versions package-lock.json pins, not whatever the runtime carries.
        bundleAwsSDK: true,
        esbuildArgs: { '--alias': BUNDLE_ALIASES },
      },
    });
    this.serviceRole = role;
    logGroup.grantWrite(role);
  }

  /** Lets the function read (`read`) or read and write (`readWrite`) the event table and its indexes. */
  bindTable(table: ITable, access: 'read' | 'readWrite'): void {
    const read = ['dynamodb:GetItem', 'dynamodb:BatchGetItem', 'dynamodb:Query'];
    // Appends, decisions and the outbox are conditional puts/updates and transactions, whose
    // items are authorised one by one (ConditionCheckItem for the head check).
    const write = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem',
      'dynamodb:ConditionCheckItem'];
    // Index ARNs are named one by one, so no policy needs `index/*`.
    const indexes = Object.values(INDEX).map((name) => `${table.tableArn}/index/${name}`);
    this.addToRolePolicy(new PolicyStatement({
      actions: access === 'read' ? read : [...read, ...write],
      resources: [table.tableArn, ...indexes],
    }));
    this.addEnvironment('TABLE_NAME', table.tableName);
  }
}
