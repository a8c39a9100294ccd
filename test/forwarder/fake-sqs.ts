import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeMessage {
  readonly messageId: string;
  readonly queue: string;
  readonly body: string;
  readonly attributes: Readonly<Record<string, { DataType: string; StringValue?: string }>>;
  receiveCount: number;
  visibleAt: number;
  receiptHandle: string | undefined;
  deleted: boolean;
  /** receiveCount when it was deleted: which delivery's handling deleted it. */
  deletedOnDelivery: number | undefined;
}

const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');

/**
 * SQS on 127.0.0.1, speaking the AWS JSON 1.0 protocol of current SDKs (`X-Amz-Target:
 * AmazonSQS.<Operation>`): ReceiveMessage with long polling (capped by `maxWaitMs` to keep
 * tests fast), DeleteMessage, SendMessage and ChangeMessageVisibility, with visibility timeouts.
 */
export class FakeSqs {
  readonly messages: FakeMessage[] = [];
  readonly operations: { operation: string; queue: string }[] = [];
  readonly visibilityChanges: { messageId: string; seconds: number }[] = [];
  visibilityTimeoutMs = 200;
  maxWaitMs = 300;
  #failures = new Map<string, number>();
  readonly #server = createServer((req, res) => void this.#handle(req, res));
  url = '';

  static async start(): Promise<FakeSqs> {
    const fake = new FakeSqs();
    await new Promise<void>((resolve) => fake.#server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.#server.address() as AddressInfo).port}`;
    return fake;
  }

  queueUrl(name: string): string {
    return `${this.url}/000000000000/${name}`;
  }

  /** Puts a message on a queue (as the EventBridge rule would). */
  send(queue: string, body: string): FakeMessage {
    const message: FakeMessage = { messageId: randomUUID(), queue, body, attributes: {}, receiveCount: 0, visibleAt: 0, receiptHandle: undefined, deleted: false, deletedOnDelivery: undefined };
    this.messages.push(message);
    return message;
  }

  /** Messages on a queue not deleted yet (visible or in flight). */
  pending(queue: string): FakeMessage[] {
    return this.messages.filter((m) => m.queue === queue && !m.deleted);
  }

  /** The next `times` calls of `operation` fail with a 500. */
  failNext(operation: string, times = 1): void {
    this.#failures.set(operation, (this.#failures.get(operation) ?? 0) + times);
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>;
    const operation = String(req.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
    const queue = String(input.QueueUrl ?? '').split('/').at(-1) ?? '';
    this.operations.push({ operation, queue });
    const failures = this.#failures.get(operation) ?? 0;
    if (failures > 0) {
      this.#failures.set(operation, failures - 1);
      return reply(res, 500, { __type: 'com.amazonaws.sqs#InternalError', message: 'injected failure' });
    }
    switch (operation) {
      case 'ReceiveMessage':
        return reply(res, 200, await this.#receive(queue, Number(input.MaxNumberOfMessages ?? 1), Number(input.WaitTimeSeconds ?? 0), req));
      case 'DeleteMessage': {
        const message = this.messages.find((m) => m.receiptHandle !== undefined && m.receiptHandle === input.ReceiptHandle);
        if (!message) return reply(res, 400, { __type: 'com.amazonaws.sqs#ReceiptHandleIsInvalid', message: 'invalid receipt handle' });
        message.deleted = true;
        message.deletedOnDelivery = message.receiveCount;
        return reply(res, 200, {});
      }
      case 'ChangeMessageVisibility': {
        const message = this.messages.find((m) => m.receiptHandle !== undefined && m.receiptHandle === input.ReceiptHandle);
        if (!message) return reply(res, 400, { __type: 'com.amazonaws.sqs#ReceiptHandleIsInvalid', message: 'invalid receipt handle' });
        // Seconds in SQS; the fake counts them as tenths of a second to keep tests fast.
        message.visibleAt = Date.now() + Number(input.VisibilityTimeout ?? 0) * 100;
        this.visibilityChanges.push({ messageId: message.messageId, seconds: Number(input.VisibilityTimeout ?? 0) });
        return reply(res, 200, {});
      }
      case 'SendMessage': {
        const message = this.send(queue, String(input.MessageBody));
        Object.assign(message.attributes, input.MessageAttributes ?? {});
        return reply(res, 200, { MessageId: message.messageId, MD5OfMessageBody: md5(message.body) });
      }
      default:
        return reply(res, 400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: operation });
    }
  }

  async #receive(queue: string, max: number, waitSeconds: number, req: IncomingMessage) {
    const deadline = Date.now() + Math.min(waitSeconds * 1000, this.maxWaitMs);
    let closed = false;
    req.socket.once('close', () => (closed = true));
    for (;;) {
      const now = Date.now();
      const visible = this.messages.filter((m) => m.queue === queue && !m.deleted && m.visibleAt <= now).slice(0, max);
      if (visible.length > 0 || now >= deadline || closed) {
        for (const m of visible) {
          m.receiveCount++;
          m.visibleAt = now + this.visibilityTimeoutMs;
          m.receiptHandle = randomUUID();
        }
        return {
          Messages: visible.map((m) => ({
            MessageId: m.messageId,
            ReceiptHandle: m.receiptHandle,
            MD5OfBody: md5(m.body),
            Body: m.body,
            Attributes: { ApproximateReceiveCount: String(m.receiveCount) },
          })),
        };
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
  res.end(JSON.stringify(body));
}
