import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { servingUrl, startProcess, type StartedProcess } from '../../support/start-process.ts';
import { burst, logOf, repeated, terminationsOf, type Burst } from './burst.ts';
import type { FaultCase, Outcome } from './fault-outcomes.ts';

// `npm start -- --data DIR` killed with SIGKILL at random moments of a burst (issue 24: five
// kills during a 500-pod burst stored observations twice; an acknowledged FailJob observation
// was lost once in 23 kills 150 ms after it), started again on DIR each time, and everything
// not acknowledged sent again, as a forwarder's spool does. The last kill comes a random 0–300 ms
// after the failure that decides the Job was acknowledged. Then every acknowledged event must
// be in the log exactly once, no eventId twice, the Job failed by its rule, every lingering pod
// terminated by exactly one decision.

export interface CrashRunOptions {
  readonly run: number;
  readonly pods: number;
  /** How many times the service is killed: at distinct PutEvents calls, the last after the failure. */
  readonly kills: number;
  readonly random: () => number;
  /**
   * A DynamoDB Local that outlives the service (`npm start -- --dynamodb URL`): only the process
   * dies, as a Lambda does beside DynamoDB, and a restart costs no Java start. Without it, each
   * kill takes the service's own DynamoDB Local down with it.
   */
  readonly dynamodb?: string;
}

/** A service process on DIR, its URL and an EventBridge client that never retries (a killed call is not acknowledged). */
async function start(dir: string, dynamodb: string | undefined): Promise<{ process: StartedProcess; url: string; client: EventBridgeClient }> {
  const started = startProcess(['--data', dir, '--no-sample', ...(dynamodb === undefined ? [] : ['--dynamodb', dynamodb])]);
  const url = await servingUrl(started);
  await started.when(/waiting for events/);
  const client = new EventBridgeClient({ endpoint: `${url}/events`, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 });
  return { process: started, url, client };
}

async function kill(service: { process: StartedProcess; client: EventBridgeClient }): Promise<void> {
  service.process.child.kill('SIGKILL');
  await service.process.exited();
  service.client.destroy();
}

export async function crashBurstRun(options: CrashRunOptions): Promise<FaultCase> {
  const { run, pods, kills, random, dynamodb } = options;
  const dir = mkdtempSync(join(tmpdir(), 'jobfold-crash-'));
  const work: Burst = burst(`crash-${run}`, pods);
  const calls = Math.ceil(work.entries.length / 10);
  // Kill after these PutEvents calls (and a random 0–150 ms into the next), the last one after the failure.
  const killAfter = distinctPoints(kills - 1, calls, random);
  const acked = new Set<number>();
  const name = `run ${run}: ${pods} pods, ${killAfter.length + 1} kills after calls ${[...killAfter, calls].join(', ')} of ${calls}${dynamodb ? ' (the database outlives the service)' : ''}`;
  let service = await start(dir, dynamodb);
  try {
    let call = 0;
    let next = 0; // the first entry not acknowledged
    while (acked.size < work.entries.length) {
      const batch: number[] = [];
      for (let i = next; i < work.entries.length && batch.length < 10; i++) if (!acked.has(i)) batch.push(i);
      const killNow = killAfter[0] === call;
      if (killNow) killAfter.shift();
      const sending = service.client.send(new PutEventsCommand({ Entries: batch.map((i) => work.entries[i]!) }))
        .then((output) => output.Entries?.forEach((entry, j) => { if (entry.ErrorCode === undefined) acked.add(batch[j]!); }))
        .catch(() => undefined); // killed mid-call: not acknowledged, sent again
      if (killNow) {
        await new Promise((resolve) => setTimeout(resolve, random() * 150));
        await kill(service);
        await sending;
        service = await start(dir, dynamodb);
      } else {
        await sending;
      }
      call++;
      while (acked.has(next)) next++;
    }
    // The failure that decides the Job is acknowledged: the last kill, 0–300 ms later.
    await new Promise((resolve) => setTimeout(resolve, random() * 300));
    await kill(service);
    service = await start(dir, dynamodb);
    const outcome = await settle(service.url, work);
    return { fault: 'npm start killed (SIGKILL) at random points of a burst', name, ...outcome };
  } catch (error) {
    // fetch's "fetch failed" hides why (its cause), and whether the service had exited.
    const cause = (error as Error & { cause?: unknown }).cause;
    const state = service.process.child.exitCode !== null || service.process.child.signalCode !== null
      ? `the service had exited (${service.process.child.exitCode ?? service.process.child.signalCode})` : 'the service was running';
    return { fault: 'npm start killed (SIGKILL) at random points of a burst', name, outcome: 'crash', detail: `${(error as Error).message}${cause ? ` (${String(cause)})` : ''}; ${state}`.slice(0, 400) };
  } finally {
    await kill(service).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `count` distinct calls of `calls` (all of them if fewer), drawn from `random`, in order. */
function distinctPoints(count: number, calls: number, random: () => number): number[] {
  const all = Array.from({ length: calls }, (_, i) => i);
  for (let i = all.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [all[i], all[j]] = [all[j]!, all[i]!];
  }
  return all.slice(0, count).sort((a, b) => a - b);
}

/** Waits until the service is quiet and the log holds the burst, then judges what it holds. */
export async function settle(url: string, work: Burst, timeoutMs = 120_000): Promise<{ outcome: Outcome; detail: string }> {
  const deadline = Date.now() + timeoutMs;
  let log = await logOf(url, work.name);
  let terminated: string[] = [];
  for (;;) {
    const status = (await (await fetch(`${url}/local/status`)).json()) as { quiet: boolean };
    log = await logOf(url, work.name);
    terminated = await terminationsOf(url, work.name);
    const complete = notStored(work, log.observed).length === 0 && new Set(terminated).size >= work.lingering;
    if ((status.quiet && complete) || Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const twice = repeated(log.all);
  const missing = notStored(work, log.observed);
  const terminatedTwice = repeated(terminated);
  const failedDecisions = log.decisions.filter((t) => t === 'JobConditionChanged').length;
  const counts = `${log.observed.length} observations for ${work.eventIds.length} acknowledged, ${terminated.length} pods terminated for ${work.lingering}, ${failedDecisions} condition changes`;
  if (twice.length > 0 || terminatedTwice.length > 0) return { outcome: 'duplicated', detail: `${counts}; twice: ${[...twice, ...terminatedTwice].slice(0, 5).join(', ')}` };
  if (missing.length > 0) return { outcome: 'lost', detail: `${counts}; missing: ${missing.slice(0, 5).join(', ')}` };
  if (new Set(terminated).size < work.lingering) return { outcome: 'wedged', detail: counts };
  return { outcome: 'handled', detail: counts };
}

/**
 * The burst's events not in the log, but for those a later version of their object replaced: a
 * record parked while the store was down and written again after that object's newer events is
 * dropped as older (docs/data-model.md, "Writing a batch"). eventIds are `<uid>/<rv>`.
 */
function notStored(work: Burst, observed: readonly string[]): string[] {
  const stored = new Set(observed);
  const newest = new Map<string, number>();
  for (const id of observed) {
    const [uid, rv] = splitId(id);
    newest.set(uid, Math.max(newest.get(uid) ?? 0, rv));
  }
  return work.eventIds.filter((id) => !stored.has(id) && (newest.get(splitId(id)[0]) ?? 0) <= splitId(id)[1]);
}

/** A burst eventId `<object uid>/<resourceVersion>` as its parts. */
function splitId(id: string): [string, number] {
  const at = id.lastIndexOf('/');
  return [id.slice(0, at), Number(id.slice(at + 1))];
}
