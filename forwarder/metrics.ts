/**
 * Counters and gauges, exposed in the Prometheus text format (`GET /metrics`). Names follow
 * Prometheus conventions: `_total` for counters, units in the name.
 */

type Labels = Readonly<Record<string, string>>;

interface Family {
  readonly type: 'counter' | 'gauge';
  readonly help: string;
  readonly values: Map<string, number>;
}

export const METRIC_HELP = {
  forwarder_observations_total: 'Watch notifications turned into events, by kind and detail-type.',
  forwarder_events_invalid_total: 'Objects the event contract refused (trim failed or too large); logged with the reason.',
  forwarder_partition_keys_dropped_total: 'Events sent without a partitionKey because the Job uid is none Kinesis takes (over 256 characters, ill-formed), by kind.',
  forwarder_events_sent_total: 'Events EventBridge accepted (a pack counts once).',
  forwarder_packs_sent_total: 'Pod Observations packs EventBridge accepted.',
  forwarder_packed_observations_total: 'Observations sent in packs; divided by forwarder_packs_sent_total, the observations per pack.',
  forwarder_put_events_requests_total: 'PutEvents calls, by outcome (ok, partial, error).',
  forwarder_put_events_retries_total: 'PutEvents retries after throttling, errors or failed entries.',
  forwarder_put_events_failed_entries_total: 'Entries EventBridge failed, by ErrorCode.',
  forwarder_events_rejected_total: 'Entries EventBridge refused for good (written to rejected.jsonl), by ErrorCode.',
  forwarder_events_spooled_total: 'Events written to the on-disk spool.',
  forwarder_events_replayed_total: 'Events sent from the spool.',
  forwarder_spool_overflow_events_total: 'Events that did not fit in the full spool (the watchers stop and relist later).',
  forwarder_spool_bytes: 'Bytes waiting in the spool.',
  forwarder_spool_events: 'Events waiting in the spool.',
  forwarder_memory_queue_events: 'Events waiting in memory to be sent.',
  forwarder_spooling: '1 while events go through the spool (sending failed or fell behind), else 0.',
  forwarder_watch_connects_total: 'Watch (re)connections, by kind.',
  forwarder_watch_errors_total: 'Watch or list errors, by kind.',
  forwarder_relists_total: 'Full lists, by kind (on start, after 410 Gone, after a spool overflow).',
  forwarder_tombstones_total: 'Deletions found by a relist rather than a watch event, by kind.',
  forwarder_commands_total: 'Commands received, by detail-type and outcome (done, transient, poison, ignored).',
  forwarder_guard_watch_reads_total: 'Reads of a Job\'s pods from the pod watch by the command guards (one per Job per batch, once the watch has reached the API server\'s resourceVersion).',
  forwarder_guard_lists_total: 'Lists of a Job\'s pods the command guards read (one per Job per batch of commands, when the pod watch had not caught up).',
  forwarder_guard_list_pages_total: 'Pages of those lists (at most 500 pods a page).',
  forwarder_guard_pods_listed_total: 'Pods those lists read.',
  forwarder_dead_letters_total: 'Messages sent to the DLQ, by reason.',
  forwarder_commands_refused_total: 'Commands refused (pod not owned by the command\'s Job, namespace not watched, ...), by type and reason.',
  forwarder_sqs_errors_total: 'Failed SQS calls, by operation.',
} as const;
export type MetricName = keyof typeof METRIC_HELP;

/** The forwarder's metrics registry. */
export class Metrics {
  readonly #families = new Map<MetricName, Family>();

  inc(name: MetricName, labels: Labels = {}, by = 1): void {
    const values = this.#family(name, 'counter').values;
    const key = labelKey(labels);
    values.set(key, (values.get(key) ?? 0) + by);
  }

  set(name: MetricName, value: number, labels: Labels = {}): void {
    this.#family(name, 'gauge').values.set(labelKey(labels), value);
  }

  /** The current value (0 when never touched); for tests and health checks. */
  get(name: MetricName, labels: Labels = {}): number {
    return this.#families.get(name)?.values.get(labelKey(labels)) ?? 0;
  }

  /** The sum over every label set. */
  total(name: MetricName): number {
    let sum = 0;
    for (const value of this.#families.get(name)?.values.values() ?? []) sum += value;
    return sum;
  }

  /** Prometheus text exposition format 0.0.4. */
  render(): string {
    const lines: string[] = [];
    for (const [name, family] of [...this.#families].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`# HELP ${name} ${family.help}`, `# TYPE ${name} ${family.type}`);
      for (const [key, value] of family.values) lines.push(`${name}${key} ${value}`);
    }
    return `${lines.join('\n')}\n`;
  }

  #family(name: MetricName, type: Family['type']): Family {
    let family = this.#families.get(name);
    if (!family) {
      family = { type, help: METRIC_HELP[name], values: new Map() };
      this.#families.set(name, family);
    }
    return family;
  }
}

function labelKey(labels: Labels): string {
  const entries = Object.entries(labels).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return '';
  const escape = (v: string) => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
  return `{${entries.map(([k, v]) => `${k}="${escape(v)}"`).join(',')}}`;
}
