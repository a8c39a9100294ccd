import {
  CLUSTER_SOURCE_PREFIX, COMMAND_DETAIL_TYPES, CONTROL_SOURCE, REJECTION_DETAIL_TYPE, REJECTION_SOURCE,
} from '../../cdk/bus-contract.ts';
import { OutboundDetailType } from '../../shared/contract/outbound.ts';
import type { BusEvent, BusRule } from './local-bus.ts';

// The bus rules of the CDK stack (cdk/constructs/ingest-stream.ts, cluster-connection.ts), with
// local targets: cluster events to the ingest stream, refusals to the rejected list, commands to
// their cluster's command queue (and a list per cluster, to look at), condition changes to
// their own list.

/** A published entry as `GET /local/clusters/{clusterId}/commands` shows it. */
export interface DeliveredEntry {
  readonly id: string;
  readonly source: string;
  readonly detailType: string;
  readonly time: string;
  readonly detail: Record<string, unknown>;
}

/** A refused inbound event with its reasons, as `GET /local/rejected` shows it. */
export interface RejectedEvent {
  readonly id: string;
  readonly time: string;
  readonly reason: string;
  readonly errors: unknown;
  /** The refused event, parsed back when it is JSON. */
  readonly original: unknown;
}

/** What the local targets received. */
export class Deliveries {
  readonly #commands = new Map<string, DeliveredEntry[]>();
  readonly #conditions: DeliveredEntry[] = [];
  readonly #rejected: RejectedEvent[] = [];

  commandsFor(clusterId: string): readonly DeliveredEntry[] {
    return this.#commands.get(clusterId) ?? [];
  }

  clusterIds(): string[] {
    return [...this.#commands.keys()].sort();
  }

  conditions(): readonly DeliveredEntry[] {
    return this.#conditions;
  }

  rejected(): readonly RejectedEvent[] {
    return this.#rejected;
  }

  addCommand(clusterId: string, event: BusEvent): void {
    const list = this.#commands.get(clusterId) ?? [];
    list.push(entryOf(event));
    this.#commands.set(clusterId, list);
  }

  addCondition(event: BusEvent): void {
    this.#conditions.push(entryOf(event));
  }

  addRejected(event: BusEvent): void {
    const { reason, errors, original } = event.detail as { reason?: unknown; errors?: unknown; original?: unknown };
    this.#rejected.push({ id: event.id, time: event.time, reason: String(reason ?? ''), errors, original: parseMaybe(original) });
  }
}

/** The rules' targets: the ingest stream takes the event, a command queue its JSON (as EventBridge's SQS targets do). */
export interface QueueTargets {
  readonly ingest: (event: BusEvent) => void;
  readonly commands: (clusterId: string, body: string) => void;
}

/** The rules, routing to the queues of `targets` and to `deliveries`. */
export function busRules(targets: QueueTargets, deliveries: Deliveries): BusRule[] {
  return [
    {
      name: 'InboundRule',
      matches: (e) => e.source.startsWith(CLUSTER_SOURCE_PREFIX),
      deliver: (e) => targets.ingest(e),
    },
    {
      name: 'RejectionRule',
      matches: (e) => e.source === REJECTION_SOURCE && e['detail-type'] === REJECTION_DETAIL_TYPE,
      deliver: (e) => deliveries.addRejected(e),
    },
    {
      name: 'CommandRule',
      matches: (e) => e.source === CONTROL_SOURCE && COMMAND_DETAIL_TYPES.includes(e['detail-type'])
        && typeof e.detail['clusterId'] === 'string',
      deliver: (e) => {
        const clusterId = e.detail['clusterId'] as string;
        deliveries.addCommand(clusterId, e);
        targets.commands(clusterId, JSON.stringify(e));
      },
    },
    {
      name: 'ConditionRule',
      matches: (e) => e.source === CONTROL_SOURCE && e['detail-type'] === OutboundDetailType.JobConditionChanged,
      deliver: (e) => deliveries.addCondition(e),
    },
  ];
}

function entryOf(event: BusEvent): DeliveredEntry {
  return { id: event.id, source: event.source, detailType: event['detail-type'], time: event.time, detail: event.detail };
}

function parseMaybe(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
