import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBus } from '../../../local/bus/local-bus.ts';
import { startLocalServer, type LocalServer } from '../../../local/http/local-server.ts';
import { SqsQueues } from '../../../local/sqs/sqs-queues.ts';

// Given a built console directory, when the local server is asked for `/` and its files, then
// it serves them with their types and a strict CSP, and nothing outside the directory; without
// a build, `/` says how to make one.

const dist = mkdtempSync(join(tmpdir(), 'jobfold-console-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title>');
writeFileSync(join(dist, 'app.js'), 'export {};');
mkdirSync(join(dist, 'nested'));
writeFileSync(join(dist, 'nested', 'secret.js'), 'nope');

const servers: LocalServer[] = [];
async function serve(consoleDir: string): Promise<string> {
  const server = await startLocalServer(
    { bus: new LocalBus(), sqs: new SqsQueues(), url: () => '', query: async () => ({ statusCode: 200, body: '{}' }), local: async () => undefined, consoleDir },
    0,
    '127.0.0.1',
  );
  servers.push(server);
  return `http://127.0.0.1:${server.port}`;
}
let url: string;
beforeAll(async () => {
  url = await serve(dist);
});
afterAll(async () => {
  for (const server of servers) await server.close();
});

describe('the console at /', () => {
  it('serves index.html at / with a CSP that allows only its own scripts and the same-origin API', async () => {
    const response = await fetch(`${url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await response.text()).toContain('<title>console</title>');
  });

  it('serves the bundle with its type', async () => {
    const response = await fetch(`${url}/app.js`);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('serves nothing below or outside the directory', async () => {
    for (const path of ['/nested/secret.js', '/nested', '/..%2Fpackage.json', '/%2e%2e/package.json', '/missing.js']) {
      expect((await fetch(`${url}${path}`)).status, path).toBe(404);
    }
  });

  it('answers 503 naming the build command when the console is not built', async () => {
    const unbuilt = await serve(join(dist, 'does-not-exist'));
    const response = await fetch(`${unbuilt}/`);
    expect(response.status).toBe(503);
    expect(await response.text()).toContain('npm run build:console');
  });
});
