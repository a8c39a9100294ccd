import * as z from 'zod';
import { apiSchemas } from './schemas/registry.ts';
// Every module that registers a response schema, so the registry is complete when read.
import './schemas/common-schemas.ts';
import './schemas/job-schemas.ts';
import './schemas/history-schemas.ts';
import './schemas/explanation-schemas.ts';
import './jobsets/jobset-explanation-schemas.ts';
import './jobsets/jobset-schemas.ts';
import './schemas/whatif-schemas.ts';
import './commands/commands-schemas.ts';

type JsonSchema = Record<string, unknown>;

const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * Trims what zod writes for JSON Schema tools but an OpenAPI reader does not need: `$schema`
 * and `$id` on components, the ±2^53 bounds of every `int()`, and the long regex zod adds to
 * `format: date-time`.
 */
function tidy(ctx: { jsonSchema: JsonSchema }): void {
  const schema = ctx.jsonSchema;
  if (schema['minimum'] === -SAFE) delete schema['minimum'];
  if (schema['maximum'] === SAFE) delete schema['maximum'];
  if (schema['format'] === 'date-time') delete schema['pattern'];
}

function withoutMeta(schema: JsonSchema): JsonSchema {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/** `components.schemas`: every registered response schema, referring to each other by `$ref`. */
export function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(apiSchemas, {
    uri: (id) => `#/components/schemas/${id}`,
    io: 'input',
    unrepresentable: 'any',
    override: tidy,
  });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, withoutMeta(schema as JsonSchema)]));
}

/**
 * The JSON Schema of one request parameter: as the route sees it after parsing (`limit` is an
 * integer with its bounds and default), or as written when parsing transforms it into
 * something else (`at`). The description moves up to the parameter.
 */
export function parameterSchema(schema: z.ZodType): { schema: JsonSchema; description: string | undefined } {
  const output = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', override: tidy }) as JsonSchema;
  const described = 'type' in output || 'anyOf' in output ? output : (z.toJSONSchema(schema, { io: 'input', override: tidy }) as JsonSchema);
  const { description, ...rest } = withoutMeta(described);
  return { schema: rest, description: typeof description === 'string' ? description : undefined };
}
