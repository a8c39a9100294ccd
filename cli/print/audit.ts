import type { AuditExport } from '../../shared/audit/audit-format.ts';
import { describeFinding } from '../../shared/audit/findings.ts';
import type { Verification } from '../../shared/audit/verify.ts';
import { line, type Block } from './text.ts';

/** `jobfold verify`: the record checked, then `verified` or one line per finding (exit 1). */
export function verifyReport(audit: Pick<AuditExport, 'job'>, result: Verification): Block[] {
  const { clusterId, namespace, name, uid } = audit.job;
  return [
    line(`${clusterId}/${namespace}/${name} (uid ${uid}): ${result.entries} entries, chain head ${result.chainHead ?? '-'}`),
    ...(result.findings.length === 0
      ? [line('verified: the chain holds and the fold reproduces every decision')]
      : result.findings.map((finding) => line(`  ${finding.kind}: ${describeFinding(finding)}`))),
  ];
}
