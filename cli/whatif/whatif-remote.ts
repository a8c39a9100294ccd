import type { AnyWhatIfReport, FleetTally } from '../../shared/whatif/index.ts';
import { clientFor } from '../client/client-options.ts';

// The what-if routes through the one API client: the local stack unsigned, a deployed API
// signed (SigV4), errors as ApiError with the API's own messages.

/** The API client for `--endpoint` (or JOBFOLD_ENDPOINT, or the local stack). */
type ObjectName = { objectKind: 'Job' | 'JobSet'; cluster: string; namespace: string; name: string };

/** `POST …/{jobs,jobsets}/{name}/whatif`: a stored Job's or JobSet's report. */
export function whatIfRemote(endpoint: string, o: ObjectName, patch: unknown): Promise<AnyWhatIfReport> {
  const collection = o.objectKind === 'JobSet' ? 'jobsets' : 'jobs';
  const path = `/v1/clusters/${encodeURIComponent(o.cluster)}/namespaces/${encodeURIComponent(o.namespace)}/${collection}/${encodeURIComponent(o.name)}/whatif`;
  return clientFor(endpoint).post<AnyWhatIfReport>(path, { patch });
}

export interface FleetPage {
  readonly tally: FleetTally;
  readonly skippedBecause?: string;
  readonly nextCursor?: string;
}

export const whatIfFleetPage = (endpoint: string, body: Record<string, unknown>) => clientFor(endpoint).post<FleetPage>('/v1/whatif', body);
