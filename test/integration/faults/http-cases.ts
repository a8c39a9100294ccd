import { connect, type Socket } from 'node:net';
import type { FaultCase, Outcome } from './fault-outcomes.ts';

// The fault suite's HTTP cases on the local server (issue 24, "Queries"; "slow and half-open HTTP
// clients"): NUL and control characters in every parameter and path segment of the query API, an
// oversized request line or header, and clients that stall, half-open or vanish mid-request
// while a well-behaved client is served beside them.

const JOB = '/v1/clusters/faults-stack/namespaces/default/jobs/some-job';
const JOBSET = '/v1/clusters/faults-stack/namespaces/default/jobsets/some-jobset';
const BAD = ['%00', '%01', '%1F', '%7F', '%0A', 'a%00b'];

/** Where a bad value can go: a query parameter (`{}` marks it) or a path segment. */
const PLACES: readonly string[] = [
  '/v1/jobs?cluster={}', '/v1/jobs?namespace={}&cluster=faults-stack', '/v1/jobs?condition={}', '/v1/jobs?cursor={}', '/v1/jobs?limit={}',
  '/v1/jobsets?cluster={}', '/v1/fleet?cluster={}',
  `${JOB}?uid={}`, `${JOB}/status?at={}`, `${JOB}/history?after={}`, `${JOB}/history?limit={}`, `${JOB}/commands?after={}`, `${JOB}/explain?uid={}`,
  `${JOBSET}?uid={}`,
  '/v1/clusters/{}/namespaces/default/jobs/x', '/v1/clusters/faults-stack/namespaces/{}/jobs/x', '/v1/clusters/faults-stack/namespaces/default/jobs/{}',
  '/v1/clusters/faults-stack/namespaces/default/jobsets/{}',
];

/** One raw request; the status and body, or how the connection ended without one. */
export function rawRequest(url: string, head: string, body = '', timeoutMs = 60_000): Promise<{ status?: number; body: string; ended: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = '';
    const timer = setTimeout(() => { socket.destroy(); resolve({ body: data, ended: 'no answer in time' }); }, timeoutMs);
    socket.on('connect', () => socket.write(head + body)); // not end(): a half-closed client may lose a slow answer
    socket.on('data', (chunk) => { data += chunk.toString('latin1'); });
    socket.on('error', (error) => { clearTimeout(timer); resolve({ ...parse(data), ended: (error as NodeJS.ErrnoException).code ?? error.message }); });
    socket.on('close', () => { clearTimeout(timer); resolve({ ...parse(data), ended: 'closed' }); });
  });
}

function parse(data: string): { status?: number; body: string } {
  const status = /^HTTP\/1\.1 (\d{3})/.exec(data)?.[1];
  return { ...(status ? { status: Number(status) } : {}), body: data.slice(data.indexOf('\r\n\r\n') + 4) };
}

const judged = (fault: string, name: string, outcome: Outcome, detail: string): FaultCase => ({ fault, name, outcome, detail });

/** A bad value in every place: a 400 whose message names the parameter. */
export async function controlCharacterCases(url: string): Promise<FaultCase[]> {
  const cases: FaultCase[] = [];
  for (const place of PLACES) {
    for (const bad of BAD) {
      const path = place.replace('{}', bad);
      const answer = await rawRequest(url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      const detail = `${answer.status ?? answer.ended} ${answer.body.slice(0, 160)}`;
      const fault = 'queries: control characters';
      if (answer.status === undefined || answer.status >= 500) cases.push(judged(fault, `GET ${path}`, 'crash', detail));
      else if (answer.status === 400 && /"message"/.test(answer.body)) cases.push(judged(fault, `GET ${path}`, 'refused with reason', detail));
      else cases.push(judged(fault, `GET ${path}`, 'wrong write', `not a 400 with a message: ${detail}`));
    }
  }
  return cases;
}

/** Request lines and headers of growing size: answered (a 431 with a message past the limit), never a reset. */
export async function oversizedCases(url: string): Promise<FaultCase[]> {
  const fault = 'queries: oversized requests';
  const shapes: [string, string][] = [];
  for (const kb of [8, 15, 17, 64, 100, 1024]) shapes.push([`a ${kb} KB path`, `GET /v1/jobs/${'p'.repeat(kb * 1024)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]);
  for (const kb of [17, 100]) shapes.push([`a ${kb} KB header`, `GET /v1/jobs HTTP/1.1\r\nHost: x\r\nX-Big: ${'h'.repeat(kb * 1024)}\r\nConnection: close\r\n\r\n`]);
  shapes.push(['2,000 small headers', `GET /v1/jobs HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2000 }, (_, i) => `X-H${i}: v\r\n`).join('')}Connection: close\r\n\r\n`]);
  shapes.push(['a 100 KB query string', `GET /v1/jobs?cluster=${'c'.repeat(100 * 1024)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`]);
  const cases: FaultCase[] = [];
  for (const [name, head] of shapes) {
    const answer = await rawRequest(url, head);
    const detail = `${answer.status ?? answer.ended} ${answer.body.slice(0, 160)}`;
    if (answer.status === undefined || answer.status >= 500) cases.push(judged(fault, name, 'crash', detail));
    else if (answer.status >= 400 && /"message"/.test(answer.body)) cases.push(judged(fault, name, 'refused with reason', detail));
    else cases.push(judged(fault, name, 'handled', detail));
  }
  return cases;
}

/** A client that behaves badly: what it sends, then it stalls (or vanishes). */
interface BadClient {
  readonly name: string;
  readonly send: string;
  /** Vanish (destroy the socket) after sending, instead of stalling. */
  readonly vanish?: boolean;
}

const BAD_CLIENTS: readonly BadClient[] = [
  { name: 'opens a connection and sends nothing (half-open)', send: '' },
  { name: 'sends half a request line, then stalls', send: 'GET /v1/jo' },
  { name: 'sends the headers without their end, then stalls', send: 'GET /v1/jobs HTTP/1.1\r\nHost: x\r\n' },
  { name: 'promises a 1 MB body, sends 10 bytes, then stalls', send: 'POST /events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-amz-json-1.1\r\nContent-Length: 1048576\r\n\r\n{"Entries"' },
  { name: 'sends a request line and vanishes', send: 'GET /v1/jobs HTTP/1.1\r\n', vanish: true },
  { name: 'sends half a PutEvents body and vanishes', send: 'POST /events HTTP/1.1\r\nHost: x\r\nContent-Length: 500\r\n\r\n{"Entries":[', vanish: true },
  { name: 'asks for a Job and vanishes before the answer', send: `GET ${JOB} HTTP/1.1\r\nHost: x\r\n\r\n`, vanish: true },
];

/**
 * Each bad client, 20 at once per kind, while a well-behaved client asks for the fleet: it is
 * served meanwhile, and the server closes every stalled socket by itself (the bounds of
 * local-server.ts) rather than holding it.
 */
export async function badClientCases(url: string, closeWithinMs = 90_000): Promise<FaultCase[]> {
  const fault = 'slow and half-open HTTP clients';
  const { hostname, port } = new URL(url);
  const runs = BAD_CLIENTS.map(async (client): Promise<FaultCase> => {
    const sockets: Socket[] = [];
    const closed = await Promise.all(Array.from({ length: 20 }, () => new Promise<boolean>((resolve) => {
      const socket = connect(Number(port), hostname);
      sockets.push(socket);
      const timer = setTimeout(() => resolve(false), closeWithinMs);
      socket.on('connect', () => {
        if (client.send) socket.write(client.send);
        if (client.vanish) socket.destroy();
      });
      socket.on('data', () => undefined); // read what the server answers (a paused socket never sees its end)
      socket.on('error', () => undefined);
      socket.on('close', () => { clearTimeout(timer); resolve(true); });
    })).concat([(async () => {
      // the well-behaved client, while the bad ones hold their sockets
      await new Promise((resolve) => setTimeout(resolve, 200));
      return (await fetch(`${url}/v1/jobs?limit=1`)).status === 200;
    })()]));
    for (const socket of sockets) socket.destroy();
    const served = closed.at(-1) as boolean;
    const allClosed = closed.slice(0, -1).every(Boolean);
    const detail = `the fleet served meanwhile: ${served}; the server closed all 20 sockets within ${closeWithinMs / 1000} s: ${allClosed}`;
    return judged(fault, client.name, served && allClosed ? 'handled' : 'wedged', detail);
  });
  return Promise.all(runs);
}
