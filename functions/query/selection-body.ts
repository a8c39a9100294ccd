import * as z from 'zod';
import { parseSelection, SelectionError, type FleetSelection, type SelectionText } from '../../shared/fleet/selection.ts';
import { BadRequestError } from './http-errors.ts';

/** Which stored Jobs a fleet-wide POST reads (shared/fleet/selection.ts), as body fields. */
export const SelectionFields = {
  cluster: z.string().max(63).optional(),
  namespace: z.string().max(63).optional(),
  since: z.iso.datetime({ offset: true }).optional().meta({ description: 'Only Jobs created at or after this time (RFC 3339).' }),
  selector: z.string().max(4096).optional().meta({ description: 'A label selector over the Jobs\' labels, as kubectl takes it: `app=etl,tier in (batch,ml),!canary`.' }),
  namePrefix: z.string().max(253).optional().meta({ description: 'Only Jobs whose name starts with this.' }),
  owner: z.string().max(320).optional().meta({ description: 'Only Jobs whose controller is this object, `KIND/NAME`: `CronJob/nightly-etl`.' }),
  family: z.string().max(4096).optional().meta({ description: 'Only Jobs of this family (docs/advise.md): `cronjob:NAME`, `prefix:STEM-`, `labels:K=V,…` or `job:NAME`.' }),
};

/** The selection fields of a parsed body, checked; a field that does not parse is a 400 naming it. */
export function selectionOf(body: SelectionText): FleetSelection {
  try {
    return parseSelection(body);
  } catch (error) {
    if (error instanceof SelectionError) throw new BadRequestError([{ path: `body.${error.field}`, message: error.message }]);
    throw error;
  }
}
