import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { servingUrl, startProcess } from '../../support/start-process.ts';
import { burst, CLUSTER } from './burst.ts';
import { settle } from './crash-burst.ts';
import type { FaultCase } from './fault-outcomes.ts';

// DynamoDB Local killed mid-burst under `npm start -- --data DIR` (issue 24: 101 of 301
// acknowledged observations lost, the Job view a 500 and /local/status saying nothing). Java is
// killed by the pid /local/status gives; the burst goes on. The service must say it (a line,
// `healthy: false`), answer the query API with a 503 meanwhile, start DynamoDB Local again on
// DIR, and in the end hold every acknowledged event exactly once.

interface Status {
  readonly healthy: boolean;
  readonly quiet: boolean;
  readonly database?: { readonly pid?: number; readonly state: string };
}

export async function storeOutageRun(run: number, pods: number, random: () => number): Promise<FaultCase[]> {
  const dir = mkdtempSync(join(tmpdir(), 'jobfold-outage-'));
  const work = burst(`outage-${run}`, pods);
  const service = startProcess(['--data', dir, '--no-sample']);
  const fault = 'store outage and recovery';
  const cases: FaultCase[] = [];
  const name = (what: string) => `run ${run} (${pods} pods): ${what}`;
  try {
    const url = await servingUrl(service);
    await service.when(/waiting for events/);
    const status = async () => (await (await fetch(`${url}/local/status`)).json()) as Status;
    const client = new EventBridgeClient({ endpoint: `${url}/events`, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' }, maxAttempts: 1 });
    const javaPid = (await status()).database?.pid;
    if (javaPid === undefined) throw new Error('/local/status names no DynamoDB Local pid');
    const calls = Math.ceil(work.entries.length / 10);
    const killAt = 1 + Math.floor(random() * (calls - 2));
    let sawUnhealthy = false;
    let jobViewDuringOutage: number | undefined;
    const unacked: number[] = [];
    for (let call = 0; call < calls; call++) {
      const batch = work.entries.slice(call * 10, call * 10 + 10);
      try {
        const output = await client.send(new PutEventsCommand({ Entries: [...batch] }));
        output.Entries?.forEach((entry, j) => { if (entry.ErrorCode !== undefined) unacked.push(call * 10 + j); });
      } catch {
        unacked.push(...batch.map((_, j) => call * 10 + j));
      }
      if (call === killAt) process.kill(javaPid, 'SIGKILL');
      if (call > killAt && !sawUnhealthy) {
        // The service has noticed once the watchdog reported the exit: a moment, not a poll loop.
        for (let i = 0; i < 20 && !sawUnhealthy; i++) {
          sawUnhealthy = !(await status()).healthy;
          if (sawUnhealthy) jobViewDuringOutage = (await fetch(`${url}/v1/clusters/${CLUSTER}/namespaces/default/jobs/${work.name}`)).status;
          else await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }
    }
    // What PutEvents did not acknowledge is sent again (a forwarder's spool), once healthy.
    for (let i = 0; i < unacked.length; i += 10) {
      await client.send(new PutEventsCommand({ Entries: unacked.slice(i, i + 10).map((k) => work.entries[k]!) }));
    }
    client.destroy();
    // DynamoDB Local takes a while to start again on a loaded machine: wait for it, then judge.
    for (let i = 0; i < 360 && !(await status()).healthy; i++) await new Promise((resolve) => setTimeout(resolve, 500));
    const said = /DynamoDB Local exited .*starting it again/.test(service.text()) && /DynamoDB Local is back/.test(service.text());
    cases.push({
      fault, name: name('the death is said in one line and on /local/status, and DynamoDB Local comes back'),
      outcome: sawUnhealthy && said ? 'handled' : 'wedged',
      detail: `healthy:false seen ${sawUnhealthy}, lines ${said}, state now ${(await status()).database?.state}`,
    });
    cases.push({
      fault, name: name('the Job view while DynamoDB Local is down'),
      outcome: jobViewDuringOutage === undefined || jobViewDuringOutage === 503 || jobViewDuringOutage < 500 ? 'refused with reason' : 'crash',
      detail: `GET …/jobs/${work.name} answered ${jobViewDuringOutage ?? '(not asked: the outage was over first)'}`,
    });
    const settled = await settle(url, work);
    cases.push({ fault, name: name(`every acknowledged event stored once (${unacked.length} not acknowledged, sent again)`), ...settled });
  } catch (error) {
    cases.push({ fault, name: name('the run'), outcome: 'crash', detail: (error as Error).message.slice(0, 300) });
  } finally {
    service.child.kill('SIGTERM');
    await service.exited();
    rmSync(dir, { recursive: true, force: true });
  }
  return cases;
}
