import { createHash, randomUUID } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * The local runtime's SQS queues (each cluster's command queue and DLQ), with the semantics the
 * forwarder relies on: long-polling receives, a visibility timeout during which a received
 * message is hidden, deletes and visibility changes by receipt handle. Served over the SQS JSON
 * protocol by local/http/sqs-api.ts. Queues are created on first use. Given a file (`npm start
 * -- --data DIR`), every message not deleted yet is kept there, so commands published before a
 * restart still wait for their forwarder; in-flight ones are visible again at once after it.
 */

/** An SQS error code and message, as the API returns them. */
export class SqsError extends Error {
  override name = 'SqsError';
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

interface QueuedMessage {
  readonly messageId: string;
  readonly body: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  receiveCount: number;
  visibleAt: number;
  receiptHandle: string | undefined;
}

export interface ReceivedMessage {
  readonly MessageId: string;
  readonly ReceiptHandle: string;
  readonly MD5OfBody: string;
  readonly Body: string;
  readonly Attributes: { readonly ApproximateReceiveCount: string };
  readonly MessageAttributes?: Readonly<Record<string, unknown>>;
}

const DEFAULT_VISIBILITY_MS = 30_000;
const MAX_WAIT_SECONDS = 20;
const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

type KeptMessage = Pick<QueuedMessage, 'messageId' | 'body' | 'attributes' | 'receiveCount'>;

export class SqsQueues {
  readonly #queues = new Map<string, QueuedMessage[]>();
  readonly #waiters = new Set<() => void>();
  readonly #file: string | undefined;

  /** `file`: where the queues are kept across restarts (read now, rewritten on every change). */
  constructor(file?: string) {
    this.#file = file;
    if (file !== undefined) this.#load(file);
  }

  /** Puts a message on a queue, as a rule target or SendMessage does. */
  send(queue: string, body: string, attributes: Record<string, unknown> = {}): { MessageId: string; MD5OfMessageBody: string } {
    const message: QueuedMessage = { messageId: randomUUID(), body, attributes, receiveCount: 0, visibleAt: 0, receiptHandle: undefined };
    this.#queue(queue).push(message);
    this.#keep();
    this.wakeAll();
    return { MessageId: message.messageId, MD5OfMessageBody: md5(body) };
  }

  /**
   * Up to `max` (1–10) visible messages; waits up to `waitSeconds` (at most 20) for one to
   * arrive. Received messages stay hidden for the visibility timeout (seconds; default 30).
   */
  async receive(queue: string, max: number, waitSeconds: number, visibilityTimeout: number | undefined, signal: AbortSignal): Promise<ReceivedMessage[]> {
    const deadline = Date.now() + Math.min(Math.max(waitSeconds, 0), MAX_WAIT_SECONDS) * 1000;
    const hideFor = visibilityTimeout === undefined ? DEFAULT_VISIBILITY_MS : visibilityTimeout * 1000;
    for (;;) {
      const now = Date.now();
      const visible = this.#queue(queue).filter((m) => m.visibleAt <= now).slice(0, Math.min(Math.max(max, 1), 10));
      if (visible.length > 0 || now >= deadline || signal.aborted) {
        return visible.map((m) => {
          m.receiveCount += 1;
          m.visibleAt = now + hideFor;
          m.receiptHandle = randomUUID();
          return {
            MessageId: m.messageId,
            ReceiptHandle: m.receiptHandle,
            MD5OfBody: md5(m.body),
            Body: m.body,
            Attributes: { ApproximateReceiveCount: String(m.receiveCount) },
            ...(Object.keys(m.attributes).length > 0 ? { MessageAttributes: m.attributes } : {}),
          };
        });
      }
      await this.#wait(Math.min(250, Math.max(1, deadline - now)), signal);
    }
  }

  delete(queue: string, receiptHandle: string): void {
    const messages = this.#queue(queue);
    messages.splice(messages.indexOf(this.#byHandle(queue, receiptHandle)), 1);
    this.#keep();
  }

  changeVisibility(queue: string, receiptHandle: string, seconds: number): void {
    this.#byHandle(queue, receiptHandle).visibleAt = Date.now() + seconds * 1000;
  }

  /** Messages on a queue not deleted yet (visible or in flight). */
  size(queue: string): number {
    return this.#queue(queue).length;
  }

  /** Ends every long poll now (new messages, shutdown). */
  wakeAll(): void {
    for (const wake of [...this.#waiters]) wake();
  }

  #byHandle(queue: string, receiptHandle: string): QueuedMessage {
    const message = this.#queue(queue).find((m) => m.receiptHandle !== undefined && m.receiptHandle === receiptHandle);
    if (!message) throw new SqsError('ReceiptHandleIsInvalid', `the receipt handle "${receiptHandle}" is not valid`);
    return message;
  }

  #load(file: string): void {
    let kept: Record<string, KeptMessage[]>;
    try {
      kept = JSON.parse(readFileSync(file, 'utf8')) as Record<string, KeptMessage[]>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new Error(`${file}: cannot read the kept command queues: ${(error as Error).message}`);
    }
    for (const [name, messages] of Object.entries(kept)) {
      this.#queues.set(name, messages.map((m) => ({ ...m, visibleAt: 0, receiptHandle: undefined })));
    }
  }

  /** Rewrites the file (aside, then renamed: a kill mid-write leaves the previous state). */
  #keep(): void {
    if (this.#file === undefined) return;
    const kept: Record<string, KeptMessage[]> = {};
    for (const [name, messages] of this.#queues) {
      if (messages.length > 0) kept[name] = messages.map(({ messageId, body, attributes, receiveCount }) => ({ messageId, body, attributes, receiveCount }));
    }
    writeFileSync(`${this.#file}.tmp`, JSON.stringify(kept));
    renameSync(`${this.#file}.tmp`, this.#file);
  }

  #queue(name: string): QueuedMessage[] {
    let queue = this.#queues.get(name);
    if (!queue) this.#queues.set(name, (queue = []));
    return queue;
  }

  #wait(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        this.#waiters.delete(wake);
        clearTimeout(timer);
        signal.removeEventListener('abort', wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      signal.addEventListener('abort', wake, { once: true });
      this.#waiters.add(wake);
    });
  }
}
