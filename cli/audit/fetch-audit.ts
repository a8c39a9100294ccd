import { chainSummary, type AuditEntry, type AuditExport } from '../../shared/audit/audit-format.ts';
import { clientFor } from '../client/client-options.ts';

export interface StoredJob {
  readonly cluster: string;
  readonly namespace: string;
  readonly name: string;
}

type AuditPage = Omit<AuditExport, 'chain'> & { head: number; nextAfter?: number };

const PAGE = 500;

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
  const client = clientFor(endpoint);
  const base = `/v1/clusters/${encodeURIComponent(job.cluster)}/namespaces/${encodeURIComponent(job.namespace)}/jobs/${encodeURIComponent(job.name)}/audit`;
  let after = 0;
  let length = 0;
  let last: AuditEntry | undefined;
  let header: Omit<AuditExport, 'entries' | 'chain'> | undefined;
  for (;;) {
    const page = await client.get<AuditPage>(base, { after: String(after), limit: String(PAGE) });
    header ??= { format: page.format, job: page.job, spec: page.spec, fold: page.fold };
    onEntries(page.entries, header);
    length += page.entries.length;
    last = page.entries.at(-1) ?? last;
    if (page.nextAfter === undefined) break;
    after = page.nextAfter;
  }
  return { header, chain: { ...chainSummary(last ? [last] : []), length } };
}
