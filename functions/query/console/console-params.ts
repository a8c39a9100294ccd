import * as z from 'zod';
import { AtParamSchema, ClusterParamSchema, NamespaceParamSchema, UidParamSchema } from '../params.ts';
import { FLEET_STATES } from './fleet-state.ts';

// Parameters of the routes the web console reads (console-routes.ts).

export const MAX_FLEET_LIMIT = 500;
export const DEFAULT_FLEET_LIMIT = 50;

const DIGITS = /^[0-9]{1,15}$/;
const whole = (min: number, max: number) =>
  z.string().regex(DIGITS, 'must be a whole number').transform(Number).pipe(z.number().int().min(min).max(max));

/** `GET /v1/fleet`: filters, and paging by position in the filtered list. */
export const FleetQuerySchema = z.strictObject({
  kind: z.enum(['Job', 'JobSet']).optional().meta({ description: 'Only Jobs or only JobSets; default both.' }),
  cluster: ClusterParamSchema.optional(),
  namespace: NamespaceParamSchema.optional(),
  state: z.enum(FLEET_STATES).optional().meta({ description: 'Only objects in this state (see `FleetItem.state`).' }),
  reason: z
    .string()
    .max(1024)
    .optional()
    .meta({ description: "Only objects whose latest condition has this reason (`-` for none)." }),
  attention: z
    .enum(['stalled', 'refusedUpdate'])
    .optional()
    .meta({ description: 'Only objects whose summary carries `stalled` (every reconcile fails) or `refusedUpdate`.' }),
  limit: whole(1, MAX_FLEET_LIMIT)
    .default(DEFAULT_FLEET_LIMIT)
    .meta({ description: `Page size, 1..${MAX_FLEET_LIMIT}.` }),
  offset: whole(0, Number.MAX_SAFE_INTEGER)
    .default(0)
    .meta({ description: 'How many filtered objects to skip: the `nextOffset` of the previous page.' }),
});
export type FleetQuery = z.output<typeof FleetQuerySchema>;

/** `…/jobs/{name}/indexes`: a point of the log, as `/status` takes it. */
export const IndexesQuerySchema = z.strictObject({ uid: UidParamSchema.optional(), at: AtParamSchema.optional() });
