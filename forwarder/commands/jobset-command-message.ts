import type * as z from 'zod';
import { jobSetCommandDetailSchemas } from '../../shared/contract/command-details.ts';
import { OutboundDetailType } from '../../shared/contract/outbound.ts';

/**
 * The JobSet commands as the forwarder reads them: each detail parsed with the schema jobfold
 * builds it against (shared/contract/command-details.ts), which every jobfold version wrote.
 * Each names a child Job of a JobSet, but DeleteJobSet, which names the JobSet.
 */

type Schemas = typeof jobSetCommandDetailSchemas;
type TypeOf<Type extends keyof Schemas> = { readonly type: Type } & z.output<Schemas[Type]>;
export type JobSetCommand = { [Type in keyof Schemas]: TypeOf<Type> }[keyof Schemas];

/** The detail-type of each JobSet command, with the command's type and its detail's schema. */
export const jobSetDetailSchemas = Object.fromEntries(
  (Object.keys(jobSetCommandDetailSchemas) as Array<keyof Schemas>).map((type) => [
    OutboundDetailType[type],
    { type, schema: jobSetCommandDetailSchemas[type] },
  ]),
) as { readonly [Type in keyof Schemas as (typeof OutboundDetailType)[Type]]: { readonly type: Type; readonly schema: Schemas[Type] } };
