import type { ServeLimits } from '../functions/kube/kube-api.ts';
import type { CapacityTotals, CapacityUse } from '../functions/adapters/metered-table.ts';
import type { FoldConfig } from '../shared/job/index.ts';
import type { DeliveredEntry, Deliveries, RejectedEvent } from './bus/bus-rules.ts';
import type { LocalBus } from './bus/local-bus.ts';
import type { Decided } from './report/decided.ts';
import type { LocalRuntime, RuntimeTuning } from './runtime/local-runtime.ts';
import type { SqsQueues } from './sqs/sqs-queues.ts';
import type { DatabaseStatus } from './runtime/database-health.ts';
import type { TraceInfo, TraceOutcome } from './trace/play-trace.ts';
import type { TracePace } from './trace/time-shift.ts';

// What startLocalStack (local/local-stack.ts) takes and returns: for `npm start`, the tests,
// the benchmark and a forwarder's end-to-end test.

export interface LocalStackOptions {
  /** Port on 127.0.0.1; 0 picks a free one. Default 3000. */
  readonly port?: number;
  readonly host?: string;
  /** Feed samples/fleet.jsonl once started. Default false. */
  readonly sample?: boolean;
  /** Feed this trace (JSONL of PutEvents entries) once started; wins over `sample`. */
  readonly replay?: string;
  readonly pace?: Partial<TracePace>;
  /** Show the feeding's progress (events/s, ETA) on stderr when it is a terminal. Default false. */
  readonly progress?: boolean;
  /**
   * Keep DynamoDB Local's files, the command queues and the record of fed traces in this
   * directory; a trace already fed into it is not fed again. Default: in memory.
   */
  readonly dataDir?: string;
  /** Use this DynamoDB (Local) endpoint instead of starting DynamoDB Local. */
  readonly dynamoDbEndpoint?: string;
  readonly tableName?: string;
  /** Default: FEATURE_GATES from the environment over jobfold's defaults, as the functions read it. */
  readonly config?: FoldConfig;
  readonly tuning?: RuntimeTuning;
  /** Called with the capacity each DynamoDB request consumed (for breakdowns). */
  readonly onConsumedCapacity?: (use: CapacityUse) => void;
  /** Where one-line notices go (DynamoDB Local died, came back); default console.log. */
  readonly say?: (line: string) => void;
  /** The kube API's limits (local/http/kube-server.ts LOCAL_LIMITS), for tests of short watches. */
  readonly kubeLimits?: Partial<ServeLimits>;
}

export interface LocalStack {
  readonly url: string;
  /** The endpoint for `new EventBridgeClient({ endpoint })`. */
  readonly eventsUrl: string;
  /** The endpoint for `new SQSClient({ endpoint })`: the clusters' command queues. */
  readonly sqsEndpoint: string;
  readonly region: string;
  /** The command queue of a cluster (created on first use): what its forwarder polls. */
  queueUrl(clusterId: string): string;
  /** Where a cluster's forwarder sends poison commands. */
  dlqUrl(clusterId: string): string;
  readonly sqs: SqsQueues;
  readonly port: number;
  readonly dynamoDbEndpoint: string;
  readonly tableName: string;
  /** The event store the handlers use (writes feed the local stream). */
  readonly store: LocalRuntime['store'];
  readonly bus: LocalBus;
  readonly deliveries: Deliveries;
  readonly runtime: LocalRuntime;
  readonly config: FoldConfig;
  /** The fed trace's outcome, when `sample` or `replay` was given. */
  readonly trace: Promise<TraceOutcome> | undefined;
  /** The trace being fed: file, number of events, and how long feeding takes. */
  readonly traceInfo: TraceInfo | undefined;
  /** With `dataDir`: where the data is kept. */
  readonly dataDir: string | undefined;
  /** With `dataDir`: the trace not fed because it was fed into that directory before. */
  readonly alreadyFed: string | undefined;
  /** With `dataDir`: true when the trace is fed again because a previous run stopped mid-way. */
  readonly refeeding: boolean;
  /** With `dataDir`: the unfinished Jobs (timers re-armed) and the JobSets (reconciled once) found at start. */
  readonly resumedObjects: number;
  /** With `dataDir`: records an earlier run dead-lettered and kept, put back into the stream at start. */
  readonly redriven: number;
  /** Resolves with the reason when DynamoDB Local died and cannot come back (in memory, or its restarts failed). */
  readonly failed: Promise<string>;
  /** DynamoDB Local's health when it was started here (undefined on an endpoint given from outside). */
  database(): DatabaseStatus | undefined;
  /** DynamoDB capacity consumed so far (ReturnConsumedCapacity). */
  capacity(): CapacityTotals;
  commands(clusterId: string): readonly DeliveredEntry[];
  rejected(): readonly RejectedEvent[];
  /** Feeds a trace file, time-shifted to now, and resolves once it is decided (rejects on stop). */
  replay(file: string, pace?: Partial<TracePace>): Promise<TraceOutcome>;
  /**
   * Resolves once nothing is queued, running or retrying and no timer is due within
   * `horizonMs` (default 10 s); rejects when the stack is stopped first.
   */
  whenQuiet(horizonMs?: number): Promise<void>;
  /** What was decided for every Job and JobSet so far, as the query API reads it. */
  decided(): Promise<Decided[]>;
  /** Stops the server, the timers and the functions, then DynamoDB Local (if started here). */
  stop(): Promise<void>;
}
