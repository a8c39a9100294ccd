import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replayCommand } from '../../../cli/replay-command.ts';

/** Runs `jobfold replay ARGS` in-process and captures what it prints. */
export async function runReplay(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await replayCommand(args, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Writes a throw-away input file and returns its path. */
export function inputFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'jobfold-replay-')), name);
  writeFileSync(path, text);
  return path;
}

export const STORY_2 = 'samples/story-2-leader.json';
export const NAMED_FAILURE = 'samples/named-failure.jsonl';
