import { appendFileSynced } from '../atomic-file.ts';
import type { Logger } from '../log.ts';
import type { Metrics } from '../metrics.ts';
import type { Rejection } from './put-events.ts';

/**
 * Keeps entries EventBridge refused for good (InvalidArgument, MalformedDetail, …): each is
 * counted, logged as an error, and appended with its error code to `file` (JSON lines), where
 * an operator can inspect and resend it. Retrying them would only block the events behind.
 */
export async function recordRejections(rejections: readonly Rejection[], file: string, metrics: Metrics, log: Logger): Promise<void> {
  if (rejections.length === 0) return;
  for (const r of rejections) {
    metrics.inc('forwarder_events_rejected_total', { code: r.code });
    log.error('EventBridge refused an event for good; kept in the rejected file', { eventId: r.event.eventId, code: r.code, message: r.message, file });
  }
  await appendFileSynced(file, rejections.map((r) => `${JSON.stringify({ code: r.code, message: r.message, event: r.event })}\n`).join(''));
}
