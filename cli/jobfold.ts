#!/usr/bin/env node
import { CLIENT_HELP_LINES, isClientCommand, runClientCommand } from './client/client-commands.ts';
import { conformanceCommand } from './conformance-command.ts';
import { docsCommand } from './docs-command.ts';
import { replayCommand } from './replay-command.ts';
import { whatIfCommand } from './whatif-command.ts';
import { auditCommand, verifyCommand } from './audit-command.ts';
import { adminCommand } from './admin-command.ts';
import { kubeconfigCommand } from './kube/kubeconfig-command.ts';
import { tokenCommand } from './kube/token-command.ts';
import { ApiError } from './client/api-client.ts';
import { UsageError } from './client/client-options.ts';

const HELP = `Usage: jobfold <command> [options]

Commands for the API (default http://127.0.0.1:3000; --endpoint URL or JOBFOLD_ENDPOINT):
${CLIENT_HELP_LINES}

For kubectl (jobfold's read-only Kubernetes API, /k8s/clusters/<cluster>, docs/kubectl.md):
  kubeconfig       write one kubectl context per cluster, jobfold-<cluster>
  token            an ExecCredential for a deployed API (kubectl runs it as exec plugin)

Commands on files:
  replay FILE      fold a Job or JobSet (scenario or JSONL trace), describe and explain it
  whatif …         refold a Job or JobSet (FILE, stored object or the fleet) under a patched spec
  audit C/NS/NAME  write a stored Job's self-contained audit export (JSON) to stdout
  verify …         check an audit export or stored Job: hash chain and decisions
  conformance      run the conformance corpora (../shared/conformance)
  docs             regenerate docs/events.md, docs/schemas and docs/openapi.yaml

Commands on the stack's own resources (AWS credentials of the environment):
  admin backfill-fleet-index   rebuild the summary indexes' attributes after an upgrade
  admin redrive                send what the dead-letter triage parked through the writer again

Run "jobfold <command> --help" for the options of a command.`;

const [command, ...args] = process.argv.slice(2);
if (isClientCommand(command)) process.exitCode = await runClientCommand(command, args);
else switch (command) {
  case 'replay':
    process.exitCode = await replayCommand(args);
    break;
  case 'audit':
    process.exitCode = await auditCommand(args);
    break;
  case 'verify':
    process.exitCode = await verifyCommand(args);
    break;
  case 'whatif':
    process.exitCode = await whatIfCommand(args);
    break;
  case 'conformance':
    process.exitCode = conformanceCommand(args);
    break;
  case 'admin':
    process.exitCode = await adminCommand(args);
    break;
  case 'kubeconfig':
  case 'token':
    process.exitCode = await kubeCommand(command, args);
    break;
  case 'docs':
    process.exitCode = docsCommand();
    break;
  case undefined:
  case '--help':
  case '-h':
    console.log(HELP);
    break;
  default:
    console.error(`jobfold: unknown command ${command}\n\n${HELP}`);
    process.exitCode = 2;
}

/** kubeconfig and token: kubectl's manners (stderr and exit 2 for usage, 1 when the API or AWS refuses). */
async function kubeCommand(name: 'kubeconfig' | 'token', argv: readonly string[]): Promise<number> {
  const write = (text: string) => void process.stdout.write(text);
  try {
    await (name === 'kubeconfig' ? kubeconfigCommand(argv, write) : tokenCommand(argv, write));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`jobfold ${name}: ${error.message}\nRun "jobfold ${name} --help" for its options.\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      process.stderr.write(`Error: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
