import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';

/** Content type of AWS JSON 1.1, the protocol of EventBridge's API. */
export const AWS_JSON = 'application/x-amz-json-1.1';

/** An AWS JSON 1.1 answer; errors carry `__type` and `message`, as the SDK parses them. */
export function sendAwsJson(res: ServerResponse, status: number, body: unknown): void {
  const headers: Record<string, string> = { 'content-type': AWS_JSON, 'x-amzn-requestid': randomUUID() };
  const type = (body as { __type?: unknown } | null)?.__type;
  if (status >= 400 && typeof type === 'string') headers['x-amzn-errortype'] = type;
  res.writeHead(status, headers);
  res.end(JSON.stringify(body));
}

export function sendAwsError(res: ServerResponse, status: number, type: string, message: string): void {
  sendAwsJson(res, status, { __type: type, message });
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(`${JSON.stringify(body, null, 2)}\n`);
}
