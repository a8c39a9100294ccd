#!/usr/bin/env node
import { conformanceCommand } from './conformance-command.ts';
import { docsCommand } from './docs-command.ts';
import { replayCommand } from './replay-command.ts';
import { whatIfCommand } from './whatif-command.ts';

const HELP = `Usage: jobfold <command> [options]

Commands:
  replay FILE      fold a Job or JobSet (scenario or JSONL trace), describe and explain it
  whatif …         refold a Job (FILE, stored Job or the fleet) under a patched spec
  conformance      run the conformance corpora (../shared/conformance)
  docs             regenerate docs/events.md, docs/schemas and docs/openapi.yaml

Run "jobfold <command> --help" for the options of a command.`;

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'replay':
    process.exitCode = replayCommand(args);
    break;
  case 'whatif':
    process.exitCode = await whatIfCommand(args);
    break;
  case 'conformance':
    process.exitCode = conformanceCommand(args);
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
