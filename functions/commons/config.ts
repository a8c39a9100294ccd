import * as z from 'zod';
import { DEFAULT_TABLE_NAME } from '../adapters/table-layout.ts';
import { DEFAULT_FOLD_CONFIG, type FoldConfig } from '../../shared/job/index.ts';
import { DEFAULT_CLOCK_SKEW_MS } from '../../shared/job/index.ts';

/**
 * The environment a handler runs with, parsed once at cold start. A bad value stops the
 * function with an error naming the variable, instead of failing later on an event.
 */
const EnvSchema = z.object({
  TABLE_NAME: z.string().min(1).default(DEFAULT_TABLE_NAME),
  BUS_NAME: z.string().min(1).default('jobfold'),
  /** Comma-separated gates, e.g. `PodFailurePolicyName=false`. */
  FEATURE_GATES: z.string().default(''),
  /**
   * How far (seconds) an event's observedAt may lie after its arrival and still be the cluster's
   * time of it (docs/data-model.md, "Time"); beyond, the arrival time stands in.
   */
  CLOCK_SKEW_SECONDS: z.coerce.number().int().nonnegative().default(DEFAULT_CLOCK_SKEW_MS / 1000),
  /** EventBridge Scheduler: group, the ingest stream's ARN (timers' target) and the role that may put into it. */
  SCHEDULE_GROUP: z.string().default('jobfold'),
  TIMERS_TARGET_ARN: z.string().default(''),
  SCHEDULER_ROLE_ARN: z.string().default(''),
  /** Where the Scheduler sends a timer it could not deliver. */
  TIMERS_DLQ_ARN: z.string().default(''),
  SNAPSHOT_EVERY: z.coerce.number().int().positive().default(50),
  AWS_ENDPOINT_URL_DYNAMODB: z.string().optional(),
  /** The dead-letter triage: the ingest stream it reads back and puts into, its parked queue, its last receive. */
  STREAM_ARN: z.string().default(''),
  PARKED_QUEUE_URL: z.string().default(''),
  TRIAGE_MAX_RECEIVES: z.coerce.number().int().positive().default(5),
  /** The query function's secret for signing list cursors (functions/query/list-cursor.ts). */
  CURSOR_KEY: z.string().optional(),
});
export type Env = z.infer<typeof EnvSchema>;

export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`invalid environment variable ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

/** `FEATURE_GATES=PodFailurePolicyName=false` over jobfold's defaults, and the allowed clock skew. */
export function foldConfig(gates: string, clockSkewSeconds = DEFAULT_CLOCK_SKEW_MS / 1000): FoldConfig {
  const result = { ...DEFAULT_FOLD_CONFIG.gates };
  for (const pair of gates.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [name, value] = pair.split('=');
    if (name !== 'PodFailurePolicyName' || (value !== 'true' && value !== 'false')) {
      throw new Error(`FEATURE_GATES: unknown gate or value "${pair}" (known: PodFailurePolicyName=true|false)`);
    }
    result.PodFailurePolicyName = value === 'true';
  }
  return { ...DEFAULT_FOLD_CONFIG, gates: result, clockSkewMs: clockSkewSeconds * 1000 };
}
