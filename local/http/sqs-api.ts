import type { IncomingMessage, ServerResponse } from 'node:http';
import { SqsError, type SqsQueues } from '../sqs/sqs-queues.ts';

// SQS's API for the command queues, in the AWS JSON 1.0 protocol of current SDKs
// (`X-Amz-Target: AmazonSQS.<Operation>`); the SDK posts to `<endpoint>/` with the QueueUrl in
// the body. Queue URLs are `<url>/sqs/000000000000/<name>`. Operations a forwarder uses:
// ReceiveMessage (long poll), DeleteMessage, ChangeMessageVisibility, SendMessage, GetQueueUrl.

const AWS_JSON_10 = 'application/x-amz-json-1.0';
export const LOCAL_ACCOUNT_PATH = '000000000000';

export async function handleSqs(queues: SqsQueues, baseUrl: string, req: IncomingMessage, res: ServerResponse, body: string): Promise<void> {
  const operation = String(req.headers['x-amz-target'] ?? '').replace(/^AmazonSQS\./, '');
  let input: Record<string, unknown>;
  try {
    input = JSON.parse(body || '{}') as Record<string, unknown>;
  } catch {
    return reply(res, 400, { __type: 'com.amazonaws.sqs#InvalidParameterValue', message: 'the request body is not valid JSON' });
  }
  const queue = String(input['QueueUrl'] ?? '').split('/').at(-1) ?? '';
  try {
    switch (operation) {
      case 'ReceiveMessage': {
        const closed = new AbortController();
        res.once('close', () => closed.abort());
        const messages = await queues.receive(queue, Number(input['MaxNumberOfMessages'] ?? 1), Number(input['WaitTimeSeconds'] ?? 0),
          input['VisibilityTimeout'] === undefined ? undefined : Number(input['VisibilityTimeout']), closed.signal);
        return reply(res, 200, messages.length > 0 ? { Messages: messages } : {});
      }
      case 'DeleteMessage':
        queues.delete(queue, String(input['ReceiptHandle']));
        return reply(res, 200, {});
      case 'ChangeMessageVisibility':
        queues.changeVisibility(queue, String(input['ReceiptHandle']), Number(input['VisibilityTimeout'] ?? 0));
        return reply(res, 200, {});
      case 'SendMessage':
        return reply(res, 200, queues.send(queue, String(input['MessageBody'] ?? ''), (input['MessageAttributes'] ?? {}) as Record<string, unknown>));
      case 'GetQueueUrl':
        return reply(res, 200, { QueueUrl: `${baseUrl}/sqs/${LOCAL_ACCOUNT_PATH}/${String(input['QueueName'] ?? '')}` });
      default:
        return reply(res, 400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: `the local SQS does not implement ${operation}` });
    }
  } catch (error) {
    if (!(error instanceof SqsError)) throw error as Error;
    return reply(res, 400, { __type: `com.amazonaws.sqs#${error.code}`, message: error.message });
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': AWS_JSON_10 });
  res.end(JSON.stringify(body));
}
