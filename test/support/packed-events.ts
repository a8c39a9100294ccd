import { encodePack, PACKED_DETAIL_TYPE } from '../../shared/contract/packed-observations.ts';

// Packs of inbound events as a forwarder puts them on the bus (docs/events.md, `Pod Observations`):
// the events' details, in order, in one brotli-compressed, base64'd detail, keyed by their Job.

interface Envelope {
  readonly source: string;
  readonly 'detail-type': string;
  readonly detail: unknown;
  readonly [field: string]: unknown;
}

/** The pack of `events` (all of one Job), in the first event's envelope. */
export function packOf(events: readonly unknown[], partitionKey = jobUidOf(events[0])): Envelope {
  const first = events[0] as Envelope;
  const members = events.map((e) => ({ detailType: (e as Envelope)['detail-type'], detail: JSON.stringify((e as Envelope).detail) }));
  return { ...first, 'detail-type': PACKED_DETAIL_TYPE, detail: JSON.parse(encodePack(partitionKey, members)) };
}

/** The pack's envelope around a hand-made detail (hostile packs). */
export function packEnvelope(like: unknown, detail: unknown): Envelope {
  return { ...(like as Envelope), 'detail-type': PACKED_DETAIL_TYPE, detail };
}

/**
 * `events` with every run of pod events of one Job replaced by packs of the given sizes (the
 * last size repeats); a pack of one is sent as the single event, as the forwarder does.
 */
export function packRuns(events: readonly unknown[], sizes: readonly number[]): unknown[] {
  const out: unknown[] = [];
  let run: unknown[] = [];
  let b = 0;
  const flush = () => {
    while (run.length > 0) {
      const size = Math.max(1, sizes[b++] ?? sizes.at(-1) ?? 1);
      const members = run.splice(0, size);
      out.push(members.length === 1 ? members[0] : packOf(members));
    }
  };
  for (const event of events) {
    const e = event as Envelope;
    const packable = e['detail-type'] === 'Pod Observed' || e['detail-type'] === 'Pod Deleted';
    if (!packable || (run.length > 0 && jobUidOf(run[0]) !== jobUidOf(e))) flush();
    if (packable) run.push(e);
    else out.push(e);
  }
  flush();
  return out;
}

/** The uid of the Job an event's object belongs to (its controller owner, else the label, else its own). */
export function jobUidOf(event: unknown): string {
  const meta = ((event as Envelope).detail as { object?: { metadata?: Record<string, any> } }).object?.metadata ?? {};
  const owner = (meta['ownerReferences'] as { kind: string; uid: string }[] | undefined)?.find((r) => r.kind === 'Job');
  return owner?.uid ?? meta['labels']?.['batch.kubernetes.io/controller-uid'] ?? meta['uid'];
}
