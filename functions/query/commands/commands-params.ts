import * as z from 'zod';
import { UidParamSchema, wholeNumber } from '../params.ts';

// `…/commands?uid=&after=&limit=`: which page of an object's commands.

export const MAX_COMMANDS_LIMIT = 5000;
export const DEFAULT_COMMANDS_LIMIT = 500;

export const CommandsQuerySchema = z.strictObject({
  uid: UidParamSchema.optional(),
  after: z
    .string()
    .min(1)
    .max(1024)
    // checked before the object is looked up: a cursor the API returned holds no control character
    .regex(/^\P{Cc}*$/u, 'must not contain control characters')
    .optional()
    .meta({
      description:
        'Opaque and signed: the `nextCursor` of the previous page (absent: from the first command). A cursor the API did ' +
        'not return, or one returned for another object, is a 400 at `query.after`.',
    }),
  limit: wholeNumber(1, MAX_COMMANDS_LIMIT)
    .default(DEFAULT_COMMANDS_LIMIT)
    .meta({ description: `Commands per page, 1..${MAX_COMMANDS_LIMIT}: each pod a termination or finalizer removal names counts as one, as does each other command.` }),
});
export type CommandsQuery = z.output<typeof CommandsQuerySchema>;
