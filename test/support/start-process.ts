import { spawn, type ChildProcess } from 'node:child_process';

// `npm start` as a child process (node local/start.ts on a free port), for tests that stop it
// the hard way (SIGTERM, SIGKILL) or talk to it as a person's tools would.

const START = new URL('../../local/start.ts', import.meta.url).pathname;

export interface StartedProcess {
  readonly child: ChildProcess;
  /** Everything printed so far (stdout and stderr). */
  text(): string;
  /** Resolves with the first match of `pattern` in the output; rejects if the process exits first. */
  when(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (null when killed by a signal). */
  exited(): Promise<number | null>;
}

/** Spawns `node local/start.ts --port 0 ARGS…`. */
export function startProcess(args: readonly string[]): StartedProcess {
  const child = spawn(process.execPath, [START, '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const waiters: Array<() => void> = [];
  const add = (chunk: Buffer) => {
    text += chunk.toString();
    for (const waiter of waiters.splice(0)) waiter();
  };
  child.stdout?.on('data', add);
  child.stderr?.on('data', add);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    text: () => text,
    when: (pattern) => new Promise((resolve, reject) => {
      const check = () => {
        const match = text.match(pattern);
        if (match) return resolve(match);
        if (child.exitCode !== null || child.signalCode !== null) return reject(new Error(`exited before ${pattern}:\n${text}`));
        waiters.push(check);
      };
      child.once('exit', check);
      check();
    }),
    exited: () => exit,
  };
}

/** The query API's URL once the process serves. */
export async function servingUrl(started: StartedProcess): Promise<string> {
  const [, url] = await started.when(/serving at (http:\/\/127\.0\.0\.1:\d+)/);
  return url as string;
}
