import type { CapacityTotals } from '../../functions/adapters/metered-table.ts';
import type { Deliveries } from '../bus/bus-rules.ts';
import type { LocalRuntime } from '../runtime/local-runtime.ts';
import type { DatabaseStatus } from '../runtime/database-health.ts';

// GET /local/…: what AWS would keep in queues and consoles, as JSON.
//   /local/clusters                       clusters that received commands, with counts
//   /local/clusters/{clusterId}/commands  the published commands of one cluster (its queue)
//   /local/conditions                     every `Job Condition Changed` event
//   /local/rejected                       refused inbound events, with reasons
//   /local/dead-letters                   ingest messages past their receives; failed reconciles
//   /local/status                         healthy (DynamoDB Local up), queue depth, timers, consumed capacity (by operation),
//                                         this process's memory and CPU time (the bench's service path reads them)

export interface LocalView {
  readonly url: string;
  readonly deliveries: Deliveries;
  readonly runtime: LocalRuntime;
  readonly capacity: () => CapacityTotals;
  /** Write units consumed so far by DynamoDB operation (PutItem, TransactWriteItems, …). */
  readonly writeUnitsByOperation: () => Record<string, number>;
  /** DynamoDB requests so far by operation (a BatchGetItem or BatchWriteItem of many chunks counts each). */
  readonly requestsByOperation: () => Record<string, number>;
  /** DynamoDB Local's health, when this process started it. */
  readonly database: () => DatabaseStatus | undefined;
}

export function localRoutes(view: LocalView): (segments: readonly string[]) => Promise<unknown> {
  const { deliveries, runtime } = view;
  return async (segments) => {
    const [first, second, third, ...rest] = segments;
    if (first === '' || first === undefined) return index(view.url);
    if (rest.length > 0) return undefined;
    switch (first) {
      case 'clusters':
        if (second === undefined) {
          return deliveries.clusterIds().map((clusterId) => ({ clusterId, commands: deliveries.commandsFor(clusterId).length }));
        }
        return third === 'commands' ? deliveries.commandsFor(second) : undefined;
      case 'conditions':
        return second === undefined ? deliveries.conditions() : undefined;
      case 'rejected':
        return second === undefined ? deliveries.rejected() : undefined;
      case 'dead-letters':
        return second === undefined
          ? { ingest: ingestDeadLetters(runtime) }
          : undefined;
      case 'status':
        return second === undefined ? status(view) : undefined;
      default:
        return undefined;
    }
  };
}

/**
 * What the ingest path gave up on: events the inbound rule could not put into the stream (the
 * rule's DLQ in AWS, past the triage), records the writer failed after its retries (the mapping's
 * on-failure destination), each with its error, what the triage made of them, and what it parked.
 */
function ingestDeadLetters(runtime: LocalView['runtime']): unknown {
  return {
    undelivered: runtime.inbound.undelivered(),
    // The triage's verdict on each failed batch, and what it parked, each with its error.
    triaged: runtime.triage.triaged(),
    parked: runtime.triage.parked().map(({ original, ...entry }) => ({ ...entry, original: parseMaybe(original) })),
    failedBatches: runtime.ingest.failures().map(({ records, ...batch }) => ({
      ...batch,
      records: records.map((r) => ({ partitionKey: r.partitionKey, sequenceNumber: r.sequenceNumber, data: parseMaybe(r.data.toString('utf8')) })),
    })),
  };
}

function parseMaybe(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const MB = 1024 * 1024;
const cpuSeconds = ({ user, system }: NodeJS.CpuUsage): number => Math.round((user + system) / 1e4) / 100;

function status({ runtime, capacity, writeUnitsByOperation, requestsByOperation, database }: LocalView): unknown {
  const next = runtime.timers.nextDueMs();
  const db = database();
  return {
    // False while DynamoDB Local is down or being started again (database-health.ts).
    healthy: db?.healthy ?? true,
    ...(db ? { database: db } : {}),
    deadLetters: { parked: runtime.triage.parked().length, triaging: !runtime.triage.idle },
    quiet: runtime.isQuiet(0),
    ingestStreamDepth: runtime.ingest.depth,
    publishIdle: runtime.publisher.idle,
    timers: runtime.timers.size,
    nextTimer: next === undefined ? null : new Date(next).toISOString(),
    capacity: { ...capacity(), writeUnitsByOperation: writeUnitsByOperation(), requestsByOperation: requestsByOperation() },
    process: {
      rssMb: Math.round(process.memoryUsage.rss() / MB),
      peakRssMb: Math.round((process.resourceUsage().maxRSS * 1024) / MB),
      cpuSeconds: cpuSeconds(process.cpuUsage()),
    },
  };
}

function index(url: string): unknown {
  return {
    service: 'jobfold (local)',
    endpoints: {
      console: `GET ${url}/ (the web console)`,
      putEvents: `POST ${url}/events (EventBridge PutEvents; endpoint for the SDK: ${url}/events)`,
      commandQueues: `POST ${url}/sqs (SQS; queue URLs ${url}/sqs/000000000000/jobfold-{clusterId}-commands)`,
      jobs: `GET ${url}/v1/jobs?cluster=&namespace=&condition=&limit=&cursor=`,
      job: `GET ${url}/v1/clusters/{cluster}/namespaces/{namespace}/jobs/{name}[/history|/explain|/status?at=]`,
      openapi: `GET ${url}/v1/openapi.json`,
      commands: `GET ${url}/local/clusters/{clusterId}/commands`,
      conditions: `GET ${url}/local/conditions`,
      rejected: `GET ${url}/local/rejected`,
      deadLetters: `GET ${url}/local/dead-letters`,
      status: `GET ${url}/local/status`,
    },
  };
}
