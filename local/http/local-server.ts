import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { PutEventsRequestError } from '../bus/put-events-request.ts';
import type { LocalBus } from '../bus/local-bus.ts';
import type { SqsQueues } from '../sqs/sqs-queues.ts';
import { apiGatewayEvent, sendApiResult } from './api-gateway-event.ts';
import { sendAwsError, sendAwsJson, sendJson } from './aws-json.ts';
import { serveConsoleFile } from '../../console/serve-files.ts';
import { handleSqs } from './sqs-api.ts';

// The one HTTP server of the local runtime, on 127.0.0.1:
//   POST /events   EventBridge PutEvents (AWS JSON 1.1); the SDK posts to `<endpoint>/`
//   POST /sqs      SQS for the clusters' command queues (AWS JSON 1.0)
//   GET  /v1/*     the query API, through the query function as API Gateway would invoke it
//   POST /v1/*     its what-if routes (the HTTP API routes GET and POST /v1/{proxy+})
//   *    /k8s/*    the Kubernetes-compatible read API (kube-server.ts): kubectl's `server:`
//   GET  /local/*  what the local targets received (commands per cluster, rejections, …)
//   GET  /         the web console (console/dist), which calls /v1/*

/** PutEvents bodies are at most 256 KiB of entries; anything far larger is not a PutEvents call. */
const MAX_BODY_BYTES = 1024 * 1024;

export interface ServerDeps {
  readonly bus: LocalBus;
  readonly sqs: SqsQueues;
  /** The server's base URL (known once it listens), for queue URLs. */
  readonly url: () => string;
  readonly query: (event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyResultV2<unknown>>;
  /** Answers a request under /k8s/ (the kube API; watches stream); without it, 404. */
  readonly kube?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** The JSON for a GET under /local (path segments after "local"), or undefined for 404. */
  readonly local: (segments: readonly string[]) => Promise<unknown>;
  /** The built console to serve at `/` (default: console/dist of this checkout). */
  readonly consoleDir?: string;
}

export interface LocalServer {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * How long a client may take to send its request line and headers, and its whole request.
 * Node's own defaults (60 s, 300 s) let a few hundred slow or half-open clients hold sockets
 * for minutes; these bound each to seconds. Responses are not limited: an SQS long poll waits
 * up to 20 s after its request arrived.
 */
export const HEADERS_TIMEOUT_MS = 10_000;
export const REQUEST_TIMEOUT_MS = 30_000;
/** Node's limit on the request line and headers (its default, said here for the 431's message). */
export const MAX_HEADER_BYTES = 16 * 1024;

/** Listens on `host:port` (0: any free port); rejects with EADDRINUSE when the port is taken. */
export async function startLocalServer(deps: ServerDeps, port: number, host: string): Promise<LocalServer> {
  const server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, maxHeaderSize: MAX_HEADER_BYTES }, (req, res) => {
    handle(deps, req, res).catch((error: unknown) => {
      // A client that went away mid-request (a half-open or aborted client) is no server error.
      if (req.destroyed && (error as NodeJS.ErrnoException).code === 'ECONNRESET') return;
      console.error(`local server: ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal Server Error' });
      else res.destroy();
    });
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return { port: (server.address() as AddressInfo).port, close: () => close(server) };
}

async function handle(deps: ServerDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const path = url.pathname;
  if (path === '/events' || path.startsWith('/events/')) return putEvents(deps.bus, req, res);
  if (req.method === 'POST' && (path === '/sqs' || path.startsWith('/sqs/'))) {
    return handleSqs(deps.sqs, deps.url(), req, res, (await readBody(req)) ?? '');
  }
  if (path.startsWith('/v1/') && path.length > '/v1/'.length) {
    const body = await readBody(req);
    // HTTP APIs answer an unmatched route (here: any method but GET and POST) with this 404.
    if (req.method !== 'GET' && req.method !== 'POST') return sendJson(res, 404, { message: 'Not Found' });
    return sendApiResult(res, await deps.query(apiGatewayEvent(req, url, body ?? '')));
  }
  if (deps.kube !== undefined && (path === '/k8s' || path.startsWith('/k8s/'))) return deps.kube(req, res);
  if (req.method === 'GET' && (path === '/local' || path.startsWith('/local/'))) {
    let segments: string[];
    try {
      segments = path.split('/').slice(2).filter((s) => s !== '').map(decodeURIComponent);
    } catch {
      return sendJson(res, 400, { message: `malformed percent-encoding in the path: ${path}` });
    }
    const body = await deps.local(segments);
    return body === undefined ? sendJson(res, 404, { message: `no such resource: ${path}` }) : sendJson(res, 200, body);
  }
  if (req.method === 'GET' && (await serveConsoleFile(res, path, deps.consoleDir))) return;
  sendJson(res, 404, { message: 'Not Found' });
}

async function putEvents(bus: LocalBus, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST') return sendAwsError(res, 405, 'UnknownOperationException', 'PutEvents is a POST');
  const target = req.headers['x-amz-target'];
  if (target !== 'AWSEvents.PutEvents') {
    return sendAwsError(res, 400, 'UnknownOperationException', `unsupported operation ${String(target ?? '(no X-Amz-Target)')}; the local bus implements AWSEvents.PutEvents`);
  }
  const body = await readBody(req);
  if (body === undefined) return sendAwsError(res, 413, 'ValidationException', 'Request entity too large');
  let request: unknown;
  try {
    request = JSON.parse(body);
  } catch {
    return sendAwsError(res, 400, 'SerializationException', 'the request body is not valid JSON');
  }
  try {
    sendAwsJson(res, 200, bus.putEvents(request));
  } catch (error) {
    if (!(error instanceof PutEventsRequestError)) throw error;
    sendAwsError(res, error.status, error.type, error.message);
  }
}

/** The body as text, or undefined when it exceeds MAX_BODY_BYTES (the rest is drained). */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of req) {
    bytes += (chunk as Buffer).length;
    if (bytes <= MAX_BODY_BYTES) chunks.push(chunk as Buffer);
  }
  return bytes > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}

/**
 * A request Node's parser refused before any handler saw it: a request line and headers over
 * MAX_HEADER_BYTES (a 100 KB path) is a 431, a client too slow to send them a 408, anything
 * else a 400, each with a JSON message. The client may still be sending (the rest of a long
 * path): the socket goes on reading until the client closes or 5 s pass, because closing it
 * with unread data would reset the connection before the client read the answer.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = error.code === 'HPE_HEADER_OVERFLOW'
    ? [431, 'Request Header Fields Too Large', `the request line and headers are over ${MAX_HEADER_BYTES} bytes`]
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', `the request did not arrive within ${HEADERS_TIMEOUT_MS / 1000} s (headers) or ${REQUEST_TIMEOUT_MS / 1000} s (whole)`]
      : [400, 'Bad Request', `malformed HTTP request (${error.code ?? error.message})`];
  const body = JSON.stringify({ message });
  socket.on('data', () => undefined);
  socket.on('error', () => undefined);
  const linger = setTimeout(() => socket.destroy(), 5000).unref();
  socket.once('close', () => clearTimeout(linger));
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

async function close(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}
