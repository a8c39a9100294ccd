#!/usr/bin/env node
import { conformanceCommand } from './conformance-command.ts';

const HELP = `Usage: jobfold <command> [options]

Commands:
  replay FILE      fold a scenario or a JSONL event stream and describe the Job
  conformance      run the conformance corpora (../shared/conformance)

Run "jobfold <command> --help" for the options of a command.`;

const [command, ...args] = process.argv.slice(2);
switch (command) {
  case 'conformance':
    process.exitCode = conformanceCommand(args);
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
