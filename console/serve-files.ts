import { readdir, readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The web console (console/, built by console/build.mjs into console/dist) as static files:
// GET / is its index.html, GET /<file> any other file directly in dist/. Only names listed in
// the directory are served, so no path can reach outside it. The console routes by the URL's
// hash and calls the API with relative URLs, so nothing else is needed here.

/** Where `npm ci` (the prepare script) builds the console. */
export const CONSOLE_DIST = fileURLToPath(new URL('./dist/', import.meta.url));

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
};

/** The page's own script and styles only; the API is same-origin. */
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * Answers a GET for a console file; false when `path` names none (the caller answers 404).
 * A missing build is a 503 that says how to build it.
 */
export async function serveConsoleFile(res: ServerResponse, path: string, dist = CONSOLE_DIST): Promise<boolean> {
  const name = path === '/' ? 'index.html' : path.slice(1);
  let files: string[];
  try {
    files = await readdir(dist);
  } catch {
    if (path !== '/') return false;
    res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('The web console is not built: run `npm run build:console` (npm ci does it).\n');
    return true;
  }
  const type = CONTENT_TYPES[extname(name)];
  if (!files.includes(name) || type === undefined) return false;
  const body = await readFile(join(dist, name));
  res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache', ...SECURITY_HEADERS });
  res.end(body);
  return true;
}
