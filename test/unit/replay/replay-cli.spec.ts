import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const jobfold = (...args: string[]) =>
  spawnSync(process.execPath, ['cli/jobfold.ts', ...args], { cwd: REPO, encoding: 'utf8' });

describe('node cli/jobfold.ts replay (child process)', () => {
  it('describes the Story 2 sample and exits 0', () => {
    const { status, stdout, stderr } = jobfold('replay', 'samples/story-2-leader.json');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toContain('Pods Statuses:      0 Active (0 Ready) / 1 Succeeded / 0 Failed / 0 Terminating');
    expect(stdout).toContain('SuccessCriteriaMet: SuccessPolicy — rule 0 (succeededIndexes "0") met when pod mypod-0 (index 0) succeeded');
  });

  it('exits 2 on an unknown gate with one message and no stack trace', () => {
    const { status, stdout, stderr } = jobfold('replay', 'samples/story-2-leader.json', '--gate', 'Nope=true');
    expect(status).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('unknown feature gate Nope');
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});
