import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EventBridgeEvent } from 'aws-lambda';
import { decodePack, PACKED_DETAIL_TYPE } from '../../shared/contract/packed-observations.ts';

interface RequestEntry {
  readonly Source: string;
  readonly DetailType: string;
  readonly Detail: string;
  readonly EventBusName?: string;
  readonly Time?: number;
}

/** One PutEvents call as received, whatever its answer. */
export interface PutEventsCall {
  readonly entries: readonly RequestEntry[];
  readonly outcome: 'ok' | 'throttled' | 'error' | 'partial';
}

/**
 * An accepted entry as a rule would deliver it: the EventBridge event JSON. A `Pod Observations`
 * pack is delivered as its observations, in order, each as the event it would be alone (as the
 * writer unpacks it), so tests read observations however the forwarder packed them.
 */
export interface DeliveredEvent extends EventBridgeEvent<string, unknown> {
  readonly eventBusName: string | undefined;
}

/**
 * EventBridge's PutEvents on 127.0.0.1, speaking AWS JSON 1.1 (`X-Amz-Target:
 * AWSEvents.PutEvents`). It enforces the 10-entry limit, and can throttle calls, fail them, or
 * fail single entries with an ErrorCode.
 */
export class FakeEventBridge {
  readonly calls: PutEventsCall[] = [];
  readonly delivered: DeliveredEvent[] = [];
  /** How many observations each accepted pack held, in order. */
  readonly packs: number[] = [];
  #throttle = 0;
  #errors = 0;
  #down = false;
  #failEntries: { remaining: number; code: string; match: (e: RequestEntry) => boolean }[] = [];
  readonly #server = createServer((req, res) => void this.#handle(req, res));
  url = '';

  static async start(): Promise<FakeEventBridge> {
    const fake = new FakeEventBridge();
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  /** The next `calls` PutEvents calls answer ThrottlingException. */
  throttleNext(calls: number): void {
    this.#throttle += calls;
  }

  /** The next `calls` PutEvents calls answer 500 InternalException. */
  failNext(calls: number): void {
    this.#errors += calls;
  }

  /** Every call fails (500) until `up()`. */
  down(): void {
    this.#down = true;
  }

  up(): void {
    this.#down = false;
  }

  /** The next `entries` entries (matching `match`) fail with `code`; the others in the call succeed. */
  failEntries(entries: number, code = 'InternalFailure', match: (e: RequestEntry) => boolean = () => true): void {
    this.#failEntries.push({ remaining: entries, code, match });
  }

  /**
   * The eventIds delivered, each once, in the order of first delivery. Delivery is at least
   * once: a call cut short by a stop may still arrive, and the spool then sends it again.
   */
  uniqueEventIds(): string[] {
    return [...new Set(this.eventIds())];
  }

  /** The eventIds of the delivered events, in delivery order. */
  eventIds(): string[] {
    return this.delivered.map((e) => (e.detail as { eventId: string }).eventId);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The answer is decided when the request arrives, not once its body is read: a call
    // started while EventBridge is down fails even if it comes back up meanwhile.
    const verdict = this.#throttle > 0 ? 'throttled' : this.#down || this.#errors > 0 ? 'error' : 'ok';
    if (verdict === 'throttled') this.#throttle--;
    else if (verdict === 'error' && !this.#down) this.#errors--;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.headers['x-amz-target'] !== 'AWSEvents.PutEvents') return reply(res, 400, { __type: 'UnknownOperationException' });
    const { Entries = [] } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { Entries?: RequestEntry[] };
    if (Entries.length > 10) return reply(res, 400, { __type: 'ValidationException', message: 'at most 10 entries' });
    if (verdict !== 'ok') {
      this.calls.push({ entries: Entries, outcome: verdict });
      return verdict === 'throttled'
        ? reply(res, 400, { __type: 'ThrottlingException', message: 'Rate exceeded' })
        : reply(res, 500, { __type: 'InternalException', message: 'injected failure' });
    }
    let failed = 0;
    const results = Entries.map((entry) => {
      const rule = this.#failEntries.find((f) => f.remaining > 0 && f.match(entry));
      if (rule) {
        rule.remaining--;
        failed++;
        return { ErrorCode: rule.code, ErrorMessage: 'injected entry failure' };
      }
      const id = randomUUID();
      const event = {
        version: '0',
        id,
        'detail-type': entry.DetailType,
        source: entry.Source,
        account: '000000000000',
        time: new Date((entry.Time ?? Date.now() / 1000) * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        region: 'us-east-1',
        resources: [],
        detail: JSON.parse(entry.Detail) as unknown,
        eventBusName: entry.EventBusName,
      };
      if (entry.DetailType !== PACKED_DETAIL_TYPE) this.delivered.push(event);
      else {
        const pack = decodePack(event.detail);
        if (!pack.ok) throw new Error(`the forwarder sent a pack that does not decode: ${JSON.stringify(pack.errors)}`);
        this.packs.push(pack.items.length);
        for (const item of pack.items as { 'detail-type': string; detail: unknown }[]) {
          this.delivered.push({ ...event, 'detail-type': item['detail-type'], detail: item.detail });
        }
      }
      return { EventId: id };
    });
    this.calls.push({ entries: Entries, outcome: failed > 0 ? 'partial' : 'ok' });
    reply(res, 200, { FailedEntryCount: failed, Entries: results });
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
  res.end(JSON.stringify(body));
}
