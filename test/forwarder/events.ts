import type { OutgoingEvent } from '../../forwarder/observation.ts';

/**
 * A Pod Observed event numbered `n` (eventId `e<n>`), padded so its Detail is about
 * `detailBytes` long; enough for batching, sending and spooling tests.
 */
export function anEvent(n: number, detailBytes = 200): OutgoingEvent {
  const head = { eventId: `e${n}`, observedAt: '2026-01-01T00:00:00Z', object: { metadata: { name: `p${n}`, uid: `u${n}` } } };
  const padding = Math.max(0, detailBytes - JSON.stringify(head).length - 16);
  const detail = JSON.stringify({ ...head, padding: 'x'.repeat(padding) });
  return {
    source: 'jobfold.cluster.c1',
    detailType: 'Pod Observed',
    detail,
    time: '2026-01-01T00:00:00Z',
    eventId: `e${n}`,
    deleted: false,
    subject: { kind: 'Pod', uid: `u${n}`, name: `p${n}`, namespace: 'default' },
  };
}

export const someEvents = (count: number, detailBytes?: number) => Array.from({ length: count }, (_, i) => anEvent(i, detailBytes));
