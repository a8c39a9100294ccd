import { readFileSync } from 'node:fs';
import { AuditExportSchema, type AuditEntry, type AuditExport } from '../shared/audit/audit-format.ts';
import { verifyAudit } from '../shared/audit/verify.ts';
import { fetchAudit, type StoredJob } from './audit/fetch-audit.ts';
import { printJson, printText, verifyReport } from './print/index.ts';
import { ApiError, DEFAULT_ENDPOINT } from './client/api-client.ts';
import { UsageError } from './client/client-options.ts';

export const AUDIT_HELP = `Usage:
  jobfold audit CLUSTER/NAMESPACE/NAME [--endpoint URL] > job.audit.json
  jobfold verify <job.audit.json | CLUSTER/NAMESPACE/NAME> [--json] [--endpoint URL]

audit writes a Job's self-contained audit export (docs/audit.md): the spec, every logged event
and decision with its evidence and what it read, and the hash chain, read page by page.
verify recomputes the chain and refolds the log: it names any entry changed, removed, inserted
or reordered, and any recorded decision the fold does not reproduce (a decision taken by another
fold version is reported as such, not as tampering). Exit code 1 on any finding, 2 on usage, 3
when the service cannot be reached.
  --endpoint URL   the query API (default $JOBFOLD_ENDPOINT or ${DEFAULT_ENDPOINT})`;

export interface AuditOutput {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  /** Raw writes for the streamed export (no newline added). */
  readonly write: (text: string) => void;
}

const CONSOLE: AuditOutput = {
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  write: (text) => process.stdout.write(text),
};

interface Parsed {
  readonly target: string | undefined;
  readonly json: boolean;
  readonly endpoint: string;
  readonly help: boolean;
}

function parse(argv: readonly string[]): Parsed {
  let target: string | undefined;
  let json = false;
  let help = false;
  let endpoint = process.env['JOBFOLD_ENDPOINT'] ?? DEFAULT_ENDPOINT;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--help' || arg === '-h') help = true;
    else if (arg === '--json') json = true;
    else if (arg === '--endpoint') endpoint = (argv[++i] ?? '').replace(/\/+$/, '');
    else if (arg.startsWith('--endpoint=')) endpoint = arg.slice('--endpoint='.length).replace(/\/+$/, '');
    else if (arg.startsWith('-')) throw new UsageError(`unknown option ${arg}`);
    else if (target !== undefined) throw new UsageError(`one target only (got ${target} and ${arg})`);
    else target = arg;
  }
  return { target, json, endpoint, help };
}

function storedJob(text: string): StoredJob | undefined {
  const parts = text.split('/');
  if (parts.length !== 3 || parts.some((p) => p === '')) return undefined;
  return { cluster: parts[0] as string, namespace: parts[1] as string, name: parts[2] as string };
}

/** `jobfold audit CLUSTER/NAMESPACE/NAME`: streams the export to stdout. */
export async function auditCommand(argv: readonly string[], output: AuditOutput = CONSOLE): Promise<number> {
  return guard('audit', output, async () => {
    const args = parse(argv);
    if (args.help) return output.out(AUDIT_HELP), 0;
    const job = args.target === undefined ? undefined : storedJob(args.target);
    if (!job) throw new UsageError('expected CLUSTER/NAMESPACE/NAME');
    let started = false;
    let count = 0;
    const { chain } = await fetchAudit(args.endpoint, job, (entries, header) => {
      if (!started) {
        const { format, job: identity, spec, fold } = header;
        output.write(`{"format":${JSON.stringify(format)},"job":${JSON.stringify(identity)},"spec":${JSON.stringify(spec)},"fold":${JSON.stringify(fold)},"entries":[`);
        started = true;
      }
      for (const entry of entries) output.write(`${count++ === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`);
    });
    output.write(`\n],"chain":${JSON.stringify(chain)}}\n`);
    return 0;
  });
}

/** `jobfold verify FILE | CLUSTER/NAMESPACE/NAME`: exit 1 on any finding. */
export async function verifyCommand(argv: readonly string[], output: AuditOutput = CONSOLE): Promise<number> {
  return guard('verify', output, async () => {
    const args = parse(argv);
    if (args.help) return output.out(AUDIT_HELP), 0;
    if (args.target === undefined) throw new UsageError('expected job.audit.json or CLUSTER/NAMESPACE/NAME');
    const audit = await load(args.target, args.endpoint);
    const result = verifyAudit(audit);
    output.out(args.json ? printJson(result) : printText(verifyReport(audit, result)));
    return result.findings.length === 0 ? 0 : 1;
  });
}

async function load(target: string, endpoint: string): Promise<AuditExport> {
  let text: string | undefined;
  try {
    text = readFileSync(target, 'utf8');
  } catch (error) {
    const job = storedJob(target);
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !job) throw new UsageError(`${target}: cannot read: ${(error as Error).message}`);
    const entries: AuditEntry[] = [];
    const { header, chain } = await fetchAudit(endpoint, job, (page) => entries.push(...page));
    return { ...header, entries, chain };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${target}: not valid JSON: ${(error as Error).message}`);
  }
  const parsed = AuditExportSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${target}: not an audit export: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  return parsed.data;
}

async function guard(command: string, output: AuditOutput, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UsageError) {
      output.err(`jobfold ${command}: ${error.message}\nRun "jobfold ${command} --help" for the options.`);
      return 2;
    }
    if (error instanceof ApiError) {
      output.err(`jobfold ${command}: ${error.message}`);
      return error.status === undefined || error.status >= 500 ? 3 : 1;
    }
    output.err(`jobfold ${command}: internal error: ${(error as Error).message}`);
    return 1;
  }
}
