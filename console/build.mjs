// Builds the web console: console/src → console/dist (index.html, app.js, app.css), one bundle
// with preact inside, no CDN. Plain .mjs so it runs on whatever Node `npm ci` runs (prepare).
// `node console/build.mjs --watch` rebuilds on change.
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('.', import.meta.url));
const dist = `${root}dist`;
const watch = process.argv.includes('--watch');

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await copyFile(`${root}src/index.html`, `${dist}/index.html`);

const options = {
  entryPoints: { app: `${root}src/main.tsx`, 'app-styles': `${root}src/styles.css` },
  outdir: dist,
  entryNames: '[name]',
  bundle: true,
  format: 'esm',
  target: ['chrome120', 'firefox120', 'safari17'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  minify: !watch,
  sourcemap: watch ? 'inline' : false,
  legalComments: 'none',
  logLevel: 'warning',
};

if (watch) {
  const context = await esbuild.context(options);
  await context.watch();
  console.log('console: watching console/src');
} else {
  await esbuild.build(options);
}
