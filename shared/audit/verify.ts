import type { AuditExport } from './audit-format.ts';
import type { Finding } from './findings.ts';
import { verifyEntryChain } from './verify-chain.ts';
import { verifyDecisions } from './verify-decisions.ts';

export interface Verification {
  readonly entries: number;
  readonly chainHead: string | null;
  readonly findings: readonly Finding[];
}

/**
 * Checks an audit export: the hash chain over every entry, the chain head the export names,
 * and every recorded decision against a refold of the log before it.
 */
export function verifyAudit(audit: AuditExport): Verification {
  const findings: Finding[] = [...verifyEntryChain(audit.entries)];
  const last = audit.entries.at(-1);
  if (last !== undefined && audit.chain.head !== null && last.hash !== audit.chain.head) {
    findings.push({ kind: 'changed', seq: last.seq, eventId: last.eventId });
  }
  if (audit.chain.length > audit.entries.length) {
    for (let seq = audit.entries.length + 1; seq <= audit.chain.length; seq++) findings.push({ kind: 'removed', seq });
  }
  findings.push(...verifyDecisions(audit.entries));
  return { entries: audit.entries.length, chainHead: last?.hash ?? null, findings };
}
