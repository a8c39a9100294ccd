import { chainSummary, type AuditEntry, type AuditExport } from '../../shared/audit/audit-format.ts';
import { RemoteError } from '../whatif/whatif-remote.ts';

export interface StoredJob {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
}

type AuditPage = Omit<AuditExport, 'chain'> & { head: number; nextAfter?: number };

const PAGE = 500;

async function getJson<T>(url: string): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new RemoteError(`cannot reach ${new URL(url).origin}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`, undefined);
  }
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new RemoteError(String(body['message'] ?? response.statusText), response.status);
  return body as T;
}

/**
 * Reads a stored Job's audit export page by page and hands each page's entries to `onEntries`
 * as it arrives (so a long log is written out without being held); resolves to the header and
 * the chain summary once the last page is read.
 */
export async function fetchAudit(
  endpoint: string,
  job: StoredJob,
  onEntries: (entries: readonly AuditEntry[], header: Omit<AuditExport, 'entries' | 'chain'>) => void,
): Promise<{ header: Omit<AuditExport, 'entries' | 'chain'>; chain: AuditExport['chain'] }> {
  const base = `${endpoint}/v1/clusters/${encodeURIComponent(job.cluster)}/namespaces/${encodeURIComponent(job.namespace)}/jobs/${encodeURIComponent(job.name)}/audit`;
  let after = 0;
  let length = 0;
  let last: AuditEntry | undefined;
  let header: Omit<AuditExport, 'entries' | 'chain'> | undefined;
  for (;;) {
    const page = await getJson<AuditPage>(`${base}?after=${after}&limit=${PAGE}`);
    header ??= { format: page.format, job: page.job, spec: page.spec, fold: page.fold };
    onEntries(page.entries, header);
    length += page.entries.length;
    last = page.entries.at(-1) ?? last;
    if (page.nextAfter === undefined) break;
    after = page.nextAfter;
  }
  return { header, chain: { ...chainSummary(last ? [last] : []), length } };
}
