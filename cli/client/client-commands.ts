import { adviseCommand } from './advise-command.ts';
import { ApiError } from './api-client.ts';
import { consoleCommand } from './console-command.ts';
import { UsageError } from './client-options.ts';
import { commandsCommand } from './commands-command.ts';
import { describeCommand } from './describe-command.ts';
import { explainCommand } from './explain-command.ts';
import { getCommand } from './get-command.ts';
import { historyCommand } from './history-command.ts';
import { statusCommand } from './status-command.ts';

// The API client's commands (kubectl's manners): output on stdout, errors on stderr with a
// non-zero exit — 2 for a command line that cannot be run, 1 when the API refuses or cannot be
// reached.

export const CLIENT_COMMANDS = ['get', 'describe', 'explain', 'history', 'commands', 'status', 'advise', 'console'] as const;
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];

export const CLIENT_HELP_LINES = `  get jobs|jobsets           list the fleet (-A, --cluster, -n, --state, --reason, -o wide|json|yaml)
  describe job|jobset NAME   the object as kubectl describe shows it, with commands and why
  explain job|jobset NAME    why it succeeded, failed or restarted, with the evidence
  history job|jobset NAME    its log: observations, decisions, commands (--follow)
  commands job|jobset NAME   every command decided for it, oldest first, one line per pod
  status job NAME --at T|#N  its status at a point of its history
  advise                     the failure and success policies that would have saved the most pod-hours,
                             each checked Job by Job by exact what-if (--cluster, -n, -l, --owner, --since)
  console                    the web console on localhost, its API calls signed (as kubectl proxy)`;

export function isClientCommand(name: string | undefined): name is ClientCommand {
  return (CLIENT_COMMANDS as readonly (string | undefined)[]).includes(name);
}

export async function runClientCommand(name: ClientCommand, argv: readonly string[]): Promise<number> {
  const write = (text: string) => void process.stdout.write(text);
  try {
    switch (name) {
      case 'get': write(await getCommand(argv)); break;
      case 'describe': write(await describeCommand(argv)); break;
      case 'explain': write(await explainCommand(argv)); break;
      case 'status': write(await statusCommand(argv)); break;
      case 'advise': write(await adviseCommand(argv)); break;
      case 'history': await historyCommand(argv, write); break;
      case 'commands': await commandsCommand(argv, write); break;
      case 'console': await consoleCommand(argv, write); break;
    }
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`jobfold ${name}: ${error.message}\nRun "jobfold ${name} --help" for its options.\n`);
      return 2;
    }
    if (error instanceof ApiError || (error instanceof Error && error.message.startsWith('-o:'))) {
      process.stderr.write(`Error: ${error.message}\n`);
      return error instanceof ApiError ? 1 : 2;
    }
    if (error instanceof Error && /credential|Could not load/i.test(error.message)) {
      process.stderr.write(`Error: no AWS credentials to sign with: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
