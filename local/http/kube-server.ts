import type { IncomingMessage, ServerResponse } from 'node:http';
import { MAX_REVIEW_BYTES } from '../../functions/kube/access-review.ts';
import type { KubeDeps } from '../../functions/kube/fleet-reads.ts';
import { WATCH_WINDOW_MS } from '../../functions/kube/resource-version.ts';
import { serveKube, statusResponse, type ServeLimits } from '../../functions/kube/kube-api.ts';
import { statusOf } from '../../functions/kube/status.ts';
import type { WatchEvent } from '../../shared/k8s/watch-event.ts';
import type { WatchSink } from '../../shared/ports.ts';

// The kube API on the local server, at /k8s/clusters/{cluster}/…: the same code as the Lambda
// (functions/kube/kube-api.ts), without API Gateway in front, so a watch streams its events as
// they happen (chunked) and lasts up to LOCAL_LIMITS.maxWatchMs or the client's timeoutSeconds.
// No authentication: the server listens on loopback only, as the rest of `npm start` does.

export const LOCAL_LIMITS: ServeLimits = {
  maxWatchMs: 30 * 60_000,
  maxResponseBytes: 256 * 1024 * 1024,
  maxInitialEvents: 200_000,
  watchWindowMs: WATCH_WINDOW_MS,
};

export async function handleKube(deps: KubeDeps, req: IncomingMessage, res: ServerResponse, limits: ServeLimits = LOCAL_LIMITS): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(',') : value;
  const rawQuery = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?') + 1) : '';
  let response;
  try {
    const body = await readBody(req);
    response = await serveKube({ method: req.method ?? 'GET', path: url.pathname, rawQuery, headers, ...(body === undefined ? {} : { body }) }, deps, limits);
  } catch (error) {
    console.error(`kube API: ${req.method} ${req.url}: ${(error as Error).stack ?? String(error)}`);
    response = statusResponse(statusOf(500, 'InternalError', 'an error on the server has prevented the request from succeeding (see the npm start log)'));
  }
  if ('body' in response) {
    res.writeHead(response.status, response.headers);
    res.end(req.method === 'HEAD' ? undefined : response.body);
    return;
  }
  res.writeHead(200, { ...response.headers, 'transfer-encoding': 'chunked' });
  const sink = new StreamSink(res);
  try {
    await response.watch(sink);
  } catch (error) {
    // Headers are out: the error ends the watch as the API server does, with an ERROR event.
    console.error(`kube API watch: ${req.url}: ${(error as Error).stack ?? String(error)}`);
    sink.write({ type: 'ERROR', object: statusOf(500, 'InternalError', 'the watch failed on the server (see the npm start log)') });
  }
  res.end();
}

/**
 * The body of a request, kept up to MAX_REVIEW_BYTES + 1 (only a review's is read; a longer one
 * is refused by its length, access-review.ts): the rest is drained, never held.
 */
async function readBody(req: IncomingMessage): Promise<Uint8Array | undefined> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    req.resume();
    return undefined;
  }
  const chunks: Buffer[] = [];
  let kept = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (kept > MAX_REVIEW_BYTES) continue;
    chunks.push(chunk);
    kept += chunk.length;
  }
  return Buffer.concat(chunks);
}

/** Writes each event as a JSON line as it comes; closed once the client has gone. */
class StreamSink implements WatchSink {
  readonly #res: ServerResponse;
  #closed = false;

  constructor(res: ServerResponse) {
    this.#res = res;
    res.on('close', () => {
      this.#closed = true;
    });
  }

  get closed(): boolean {
    return this.#closed || this.#res.destroyed;
  }

  write(event: WatchEvent): boolean {
    if (this.closed) return false;
    this.#res.write(`${JSON.stringify(event)}\n`);
    return true;
  }
}
