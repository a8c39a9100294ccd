import { parseArgs } from 'node:util';
import * as z from 'zod';
import { ClusterIdSchema } from '../shared/job/index.ts';
import { LOG_LEVELS } from './log.ts';
import { COMMAND_MAX_RECEIVES } from './commands/command-consumer.ts';
import { DEFAULT_PACK_LIMITS } from './send/pack.ts';

/** Every setting: its flag, its environment variable, and what it means. Flags win over env. */
export const SETTINGS = {
  clusterId: { flag: 'cluster-id', env: 'JOBFOLD_CLUSTER_ID', help: 'This cluster\'s id (a DNS label); events go out as source "jobfold.cluster.<id>". Required.' },
  eventBusName: { flag: 'event-bus-name', env: 'JOBFOLD_EVENT_BUS_NAME', help: 'EventBridge bus to put events on (name or ARN). Default: "default".' },
  region: { flag: 'region', env: 'AWS_REGION', help: 'AWS region (also AWS_DEFAULT_REGION). Default with endpoint overrides: us-east-1.' },
  queueUrl: { flag: 'queue-url', env: 'JOBFOLD_QUEUE_URL', help: 'SQS URL of this cluster\'s command queue. Without it, commands are not applied.' },
  dlqUrl: { flag: 'dlq-url', env: 'JOBFOLD_DLQ_URL', help: 'SQS URL for poison commands. Without it, they stay for the queue\'s redrive policy.' },
  maxReceives: { flag: 'max-receives', env: 'JOBFOLD_MAX_RECEIVES', help: 'The command queue\'s redrive maxReceiveCount: on that receive a command that still fails goes to the DLQ with its last error. Default: 5 (what the CDK app sets).' },
  namespace: { flag: 'namespace', env: 'JOBFOLD_NAMESPACE', help: 'Watch one namespace only. Default: all namespaces.' },
  spoolDir: { flag: 'spool-dir', env: 'JOBFOLD_SPOOL_DIR', help: 'Directory of the on-disk spool and the known-objects file. Default: ./.jobfold-forwarder.' },
  spoolMaxBytes: { flag: 'spool-max-bytes', env: 'JOBFOLD_SPOOL_MAX_BYTES', help: 'Bound on the spool, in bytes (suffixes Ki, Mi, Gi). Default: 256Mi.' },
  eventsEndpoint: { flag: 'events-endpoint', env: 'JOBFOLD_EVENTS_ENDPOINT', help: 'EventBridge endpoint override (local stack: http://127.0.0.1:3000/events).' },
  sqsEndpoint: { flag: 'sqs-endpoint', env: 'JOBFOLD_SQS_ENDPOINT', help: 'SQS endpoint override (local stack).' },
  kubeServer: { flag: 'kube-server', env: 'JOBFOLD_KUBE_SERVER', help: 'Kubernetes API URL without credentials (local fakes, kubectl proxy). Overrides the kubeconfig.' },
  kubeconfig: { flag: 'kubeconfig', env: 'KUBECONFIG', help: 'Kubeconfig file. Default: in-cluster service account, else ~/.kube/config.' },
  packWindowMs: { flag: 'pack-window-ms', env: 'JOBFOLD_PACK_WINDOW_MS', help: `How long a Job's first pod event waits for others to leave with it as one packed event, in ms (docs/forwarder.md, "Packing"); 0 sends every event alone. Default: ${DEFAULT_PACK_LIMITS.windowMs}.` },
  metricsPort: { flag: 'metrics-port', env: 'JOBFOLD_METRICS_PORT', help: 'Serve GET /metrics (Prometheus) and GET /healthz on this port. Default: off.' },
  logLevel: { flag: 'log-level', env: 'JOBFOLD_LOG_LEVEL', help: `One of ${LOG_LEVELS.join(', ')}. Default: info.` },
} as const;
export type SettingName = keyof typeof SETTINGS;

/** A longer window would hold a Job's events back for longer than its writer batches them (1 s in AWS) many times over. */
export const MAX_PACK_WINDOW_MS = 10_000;

const url = z.url({ protocol: /^https?$/ });
const ConfigSchema = z.object({
  clusterId: ClusterIdSchema,
  eventBusName: z.string().min(1).default('default'),
  region: z.string().min(1).optional(),
  queueUrl: url.optional(),
  dlqUrl: url.optional(),
  maxReceives: z.coerce.number().int().min(1).max(1000).default(COMMAND_MAX_RECEIVES),
  namespace: z.string().min(1).max(63).optional(),
  spoolDir: z.string().min(1).default('.jobfold-forwarder'),
  spoolMaxBytes: z.string().default('256Mi').transform(parseBytes).pipe(z.number().int().min(1024 * 1024)),
  eventsEndpoint: url.optional(),
  sqsEndpoint: url.optional(),
  kubeServer: url.optional(),
  kubeconfig: z.string().min(1).optional(),
  packWindowMs: z.string().regex(/^[0-9]{1,6}$/, 'must be a whole number of milliseconds').transform(Number)
    .pipe(z.number().int().min(0).max(MAX_PACK_WINDOW_MS)).default(DEFAULT_PACK_LIMITS.windowMs),
  metricsPort: z.coerce.number().int().min(0).max(65535).optional(),
  logLevel: z.enum(LOG_LEVELS).default('info'),
});
export type ForwarderConfig = z.output<typeof ConfigSchema>;

export type ConfigResult =
  | { readonly kind: 'config'; readonly config: ForwarderConfig }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'error'; readonly message: string };

/** Reads the configuration from command-line flags, then environment variables. */
export function readConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ConfigResult {
  const options = Object.fromEntries(Object.values(SETTINGS).map((s) => [s.flag, { type: 'string' as const }]));
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: [...argv], options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true }).values;
  } catch (error) {
    return { kind: 'error', message: `${(error as Error).message}\n\n${helpText()}` };
  }
  if (values.help) return { kind: 'help', text: helpText() };
  const raw: Record<string, string | undefined> = {};
  for (const [name, setting] of Object.entries(SETTINGS)) {
    const value = values[setting.flag] ?? env[setting.env] ?? (name === 'region' ? env.AWS_DEFAULT_REGION : undefined);
    raw[name] = typeof value === 'string' && value !== '' ? value : undefined;
  }
  const parsed = ConfigSchema.safeParse(raw);
  if (parsed.success) return { kind: 'config', config: parsed.data };
  const problems = parsed.error.issues.map((issue) => {
    const setting = SETTINGS[issue.path[0] as SettingName];
    return setting ? `--${setting.flag} (${setting.env}): ${issue.message}` : issue.message;
  });
  return { kind: 'error', message: `invalid configuration:\n  ${problems.join('\n  ')}\n\nRun with --help for every setting.` };
}

export function helpText(): string {
  const rows = Object.values(SETTINGS).map((s) => `  --${s.flag} <value>\n      ${s.env}: ${s.help}`);
  return [
    'jobfold forwarder: watches Jobs and Pods, puts their events on the jobfold bus, applies commands from the cluster queue.',
    '',
    'Usage: node forwarder/main.ts [flags]',
    '',
    'Flags (each also read from the environment variable named below it):',
    ...rows,
    '  --help, -h\n      Print this help.',
  ].join('\n');
}

/** `268435456`, `256Mi`, `1Gi`, `512Ki` → bytes; NaN when unreadable. */
export function parseBytes(text: string): number {
  const match = /^(\d+)(Ki|Mi|Gi)?$/.exec(text.trim());
  if (!match) return Number.NaN;
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3 }[match[2] ?? ''] ?? 1;
  return Number(match[1]) * unit;
}
