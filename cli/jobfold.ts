#!/usr/bin/env node
import { CLIENT_HELP_LINES, isClientCommand, runClientCommand } from './client/client-commands.ts';
import { conformanceCommand } from './conformance-command.ts';
import { docsCommand } from './docs-command.ts';
import { replayCommand } from './replay-command.ts';
import { whatIfCommand } from './whatif-command.ts';
import { auditCommand, verifyCommand } from './audit-command.ts';
import { adminCommand } from './admin-command.ts';

const HELP = `Usage: jobfold <command> [options]

Commands for the API (default http://127.0.0.1:3000; --endpoint URL or JOBFOLD_ENDPOINT):
${CLIENT_HELP_LINES}

Commands on files:
  replay FILE      fold a Job or JobSet (scenario or JSONL trace), describe and explain it
  whatif …         refold a Job or JobSet (FILE, stored object or the fleet) under a patched spec
  audit C/NS/NAME  write a stored Job's self-contained audit export (JSON) to stdout
  verify …         check an audit export or stored Job: hash chain and decisions
  conformance      run the conformance corpora (../shared/conformance)
  docs             regenerate docs/events.md, docs/schemas and docs/openapi.yaml

Commands on the event table (AWS credentials of the environment):
  admin backfill-fleet-index   rebuild the summary indexes' attributes after an upgrade

Run "jobfold <command> --help" for the options of a command.`;

const [command, ...args] = process.argv.slice(2);
if (isClientCommand(command)) process.exitCode = await runClientCommand(command, args);
else switch (command) {
  case 'replay':
    process.exitCode = replayCommand(args);
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
