import type { AnyWhatIfReport, FleetTally } from '../../shared/whatif/index.ts';

/** A request the service refused (4xx), or a service that could not be reached. */
export class RemoteError extends Error {
  override name = 'RemoteError';
  readonly status: number | undefined;

  constructor(message: string, status: number | undefined) {
    super(message);
    this.status = status;
  }
}

export async function postJson<T>(endpoint: string, path: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${endpoint}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch (error) {
    throw new RemoteError(`cannot reach ${endpoint}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`, undefined);
  }
  const text = await response.text();
  const parsed = text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>);
  if (!response.ok) {
    const errors = (parsed?.['errors'] as { path: string; message: string }[] | undefined) ?? [];
    const detail = errors.length > 0 ? errors.map((e) => `${e.path}: ${e.message}`).join('\n') : String(parsed?.['message'] ?? text);
    throw new RemoteError(detail, response.status);
  }
  return parsed as T;
}

type ObjectName = { objectKind: 'Job' | 'JobSet'; cluster: string; namespace: string; name: string };

/** `POST …/{jobs,jobsets}/{name}/whatif`: a stored Job's or JobSet's report. */
export function whatIfRemote(endpoint: string, o: ObjectName, patch: unknown): Promise<AnyWhatIfReport> {
  const collection = o.objectKind === 'JobSet' ? 'jobsets' : 'jobs';
  const path = `/v1/clusters/${encodeURIComponent(o.cluster)}/namespaces/${encodeURIComponent(o.namespace)}/${collection}/${encodeURIComponent(o.name)}/whatif`;
  return postJson<AnyWhatIfReport>(endpoint, path, { patch });
}

export interface FleetPage {
  readonly tally: FleetTally;
  readonly skippedBecause?: string;
  readonly nextCursor?: string;
}

export const whatIfFleetPage = (endpoint: string, body: Record<string, unknown>) => postJson<FleetPage>(endpoint, '/v1/whatif', body);
