import { parseInbound, type InboundError } from '../contract/parse-inbound.ts';
import type { StreamKey } from '../contract/routing.ts';
import type { EventStore } from './event-store.ts';
import { observationEntry } from './log-codec.ts';

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
 * Validates one inbound event and appends it to its Job's log. An invalid event is not
 * appended: it goes to the rejection sink with its reasons and the call succeeds (retrying it
 * could never help). A store failure throws, so the caller retries the event.
 */
export async function ingest(deps: IngestDeps, event: unknown): Promise<IngestResult> {
  const parsed = parseInbound(event);
  if (!parsed.ok) {
    await deps.rejections.reject(event, parsed.errors);
    return { status: 'rejected', errors: parsed.errors };
  }
  const { stream, observation } = parsed;
  const result = await deps.store.append(stream, [observationEntry(observation)], deps.clock());
  const appended = result.appended[0];
  return appended ? { status: 'appended', stream, seq: appended.seq } : { status: 'duplicate', stream };
}
