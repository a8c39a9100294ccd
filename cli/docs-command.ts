import { mkdirSync, writeFileSync } from 'node:fs';
import { eventSchemas, eventsMarkdown } from './event-docs.ts';
import { OPENAPI_DOCUMENT } from '../functions/query/openapi.ts';
import { toYaml } from '../functions/query/yaml.ts';

/** `npm run docs`: regenerates the documents generated from code. */
export function docsCommand(): number {
  writeFileSync(new URL('../docs/events.md', import.meta.url), eventsMarkdown());
  mkdirSync(new URL('../docs/schemas/', import.meta.url), { recursive: true });
  for (const [name, text] of Object.entries(eventSchemas())) {
    writeFileSync(new URL(`../docs/schemas/${name}`, import.meta.url), text);
  }
  writeFileSync(new URL('../docs/openapi.yaml', import.meta.url), toYaml(OPENAPI_DOCUMENT));
  console.log('wrote docs/events.md, docs/schemas/ and docs/openapi.yaml');
  return 0;
}
