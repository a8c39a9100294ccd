import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CONSOLE_DIST, serveConsoleFile } from '../../console/serve-files.ts';
import type { ApiClient } from './api-client.ts';
import { ENDPOINT_HELP, UsageError, clientFor, parse } from './client-options.ts';

// `jobfold console --endpoint URL`, as `kubectl proxy` does for the dashboard: the web console's
// static files (console/dist) and its API calls (/v1/…) on one localhost origin; the calls go on
// to the endpoint signed with the user's AWS credentials. Only GET (and POST to the advise
// routes, which read and change nothing), only on 127.0.0.1: the deployed API never gets a
// public, unauthenticated page.

export const CONSOLE_HELP = `Usage: jobfold console [--endpoint URL] [--port N] [--dist DIR]

Serves the web console on http://127.0.0.1:PORT and forwards its API calls (GET /v1/…, and the
advice page's POST /v1/advise/…) to the endpoint, signed with SigV4 when it is not the local
stack. Ctrl-C stops.

Options:
  --port N              listen on 127.0.0.1:N (default 8001; 0 picks a free port)
  --dist DIR            the built console (default console/dist; \`npm run build:console\`)
${ENDPOINT_HELP}
  -h, --help            this help`;

export async function consoleCommand(argv: readonly string[], write: (text: string) => void): Promise<void> {
  const { values, positionals } = parse(argv, {
    endpoint: { type: 'string' }, port: { type: 'string' }, dist: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false },
  });
  if (values.help) return write(`${CONSOLE_HELP}\n`);
  if (positionals.length > 0) throw new UsageError(`no arguments expected: ${positionals.join(' ')}`);
  const port = Number(values.port ?? '8001');
  if (!/^\d+$/.test(values.port ?? '8001') || port > 65535) throw new UsageError(`--port: a port number, not "${values.port}"`);
  const dist = values.dist ?? CONSOLE_DIST;
  if (!existsSync(join(dist, 'index.html'))) {
    throw new UsageError(`the web console is not built: ${dist} has no index.html. Run \`npm run build:console\` (npm ci does it).`);
  }
  const client = clientFor(values.endpoint);
  const server = createServer((req, res) => void handle(client, dist, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const signed = client.signs ? ', signing its API calls with your AWS credentials' : '';
  write(`Serving the jobfold console at ${url} for ${client.endpoint.origin}${client.endpoint.pathname.replace(/\/$/, '')}${signed}; Ctrl-C stops.\n`);
  await new Promise<void>((resolve) => {
    const stop = () => server.close(() => resolve());
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** The POST routes the console calls: they read, and change nothing. */
const READING_POSTS = new Set(['/v1/advise/evidence', '/v1/advise/check']);
/** The largest body forwarded (an advice's check pass carries its proposals). */
const MAX_BODY_BYTES = 6 * 1024 * 1024;

async function handle(client: ApiClient, dist: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const post = req.method === 'POST' && READING_POSTS.has(url.pathname);
    if (req.method !== 'GET' && req.method !== 'HEAD' && !post) {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain' }).end('only GET (and POST to /v1/advise/…)\n');
      return;
    }
    if (url.pathname.startsWith('/v1/')) {
      const body = post ? await readBody(req) : undefined;
      if (post && body === undefined) {
        res.writeHead(413, { 'content-type': 'application/json' }).end(JSON.stringify({ message: `body over ${MAX_BODY_BYTES} bytes` }));
        return;
      }
      const answer = await client.request(url.pathname, Object.fromEntries(url.searchParams), body === undefined ? undefined : { body });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json', 'cache-control': 'no-store' });
      res.end(answer.body);
      return;
    }
    if (!(await serveConsoleFile(res, url.pathname, dist))) res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  } catch (error) {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: (error as Error).message }));
  }
}

/** The request body as text; undefined past MAX_BODY_BYTES. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
