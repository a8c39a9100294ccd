import type { InboundError } from '../contract/parse-inbound.ts';
import { parseAnyInbound } from '../contract/parse-any-inbound.ts';
import type { StreamKey } from '../contract/routing.ts';
import type { EventStore } from './event-store.ts';

/** Where refused events go, with the reasons. */
export interface RejectionSink {
  reject(event: unknown, errors: readonly InboundError[]): Promise<void>;
}

export interface IngestDeps {
  readonly store: EventStore;
  readonly rejections: RejectionSink;
  readonly clock: () => string;
}

export type IngestResult =
  | { readonly status: 'appended'; readonly stream: StreamKey; readonly seq: number }
  | { readonly status: 'duplicate'; readonly stream: StreamKey }
  | { readonly status: 'rejected'; readonly errors: readonly InboundError[] };

/**
 * Validates one inbound event and appends it to its Job's (or JobSet's) log. An invalid event is not
 * appended: it goes to the rejection sink with its reasons and the call succeeds (retrying it
 * could never help). A store failure throws, so the caller retries the event.
 */
export async function ingest(deps: IngestDeps, event: unknown): Promise<IngestResult> {
  const parsed = parseAnyInbound(event);
  if (!parsed.ok) {
    await deps.rejections.reject(event, parsed.errors);
    return { status: 'rejected', errors: parsed.errors };
  }
  const [primary, ...related] = parsed.targets;
  if (!primary) return { status: 'rejected', errors: [{ path: '', message: 'the event concerns no Job' }] };
  const now = deps.clock();
  // The primary log first: a crash in between leaves the related entries to the retry.
  const result = await deps.store.append(primary.stream, [primary.entry], now);
  for (const target of related) await deps.store.append(target.stream, [target.entry], now);
  const appended = result.appended[0];
  return appended
    ? { status: 'appended', stream: primary.stream, seq: appended.seq }
    : { status: 'duplicate', stream: primary.stream };
}
