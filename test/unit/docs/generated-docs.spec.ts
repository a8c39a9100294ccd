import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { eventSchemas, eventsMarkdown } from '../../../cli/event-docs.ts';
import { OPENAPI_DOCUMENT } from '../../../functions/query/openapi.ts';
import { toYaml } from '../../../functions/query/yaml.ts';

const read = (path: string) => readFileSync(new URL(`../../../docs/${path}`, import.meta.url), 'utf8');

describe('docs generated from the schemas', () => {
  it('docs/events.md matches the zod schemas (run `npm run docs` after changing them)', () => {
    expect(read('events.md')).toBe(eventsMarkdown());
  });

  it('docs/openapi.yaml matches functions/query/openapi.ts (run `npm run docs` after changing it)', () => {
    expect(read('openapi.yaml')).toBe(toYaml(OPENAPI_DOCUMENT));
  });

  it.each(Object.entries(eventSchemas()))('docs/schemas/%s matches its zod schema', (name, text) => {
    expect(read(`schemas/${name}`)).toBe(text);
  });
});
