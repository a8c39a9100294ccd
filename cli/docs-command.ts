import { mkdirSync, writeFileSync } from 'node:fs';
import { eventSchemas, eventsMarkdown } from './event-docs.ts';

/** `npm run docs`: regenerates the documents generated from code. */
export function docsCommand(): number {
  writeFileSync(new URL('../docs/events.md', import.meta.url), eventsMarkdown());
  mkdirSync(new URL('../docs/schemas/', import.meta.url), { recursive: true });
  for (const [name, text] of Object.entries(eventSchemas())) {
    writeFileSync(new URL(`../docs/schemas/${name}`, import.meta.url), text);
  }
  console.log('wrote docs/events.md and docs/schemas/');
  return 0;
}
