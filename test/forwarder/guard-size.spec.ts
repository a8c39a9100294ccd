import { describe, expect, it } from 'vitest';
import { COMMAND_BATCH_MAX } from '../../forwarder/commands/command-consumer.ts';
import { JOB_POD_PAGE } from '../../forwarder/commands/kube-ops.ts';
import { runScaleDown } from './scale-down.ts';

// Issue 21 at the size users run: a 100,000-pod Job scaled down. Each TerminatePod (ExcessPods)
// is re-checked against the Job's live pods; before, each listed all 100,000 of them in one
// response (10 commands: 10 lists, 1,000,000 pods read). Now a batch of commands reads them once
// (forwarder/commands/job-pods.ts): from the pod watch once it has caught up
// (watched-pods.ts), else from one list in pages. Counts, never times (bench/guard-lists.ts prints
// the times). One read serves the batch however slow the machine (maxAgeMs: the age bound is
// job-pods.spec.ts's).

describe('a scale-down of a 100,000-pod Job', () => {
  it('given the pod watch up and 100 excess-pod deletions queued at once, when the forwarder applies them, then the Job\'s pods are read from the watch, no list, and each named pod is deleted once', async () => {
    const figures = await runScaleDown(100_000, COMMAND_BATCH_MAX, { maxAgeMs: 60 * 60_000, watch: true });

    expect({ watchReads: figures.watchReads, versionReads: figures.versionReads, lists: figures.lists, podsServed: figures.podsServed }).toEqual({
      watchReads: 1,
      versionReads: 1,
      lists: 0,
      podsServed: 1,
    });
    expect({ deleted: figures.deleted, twice: figures.deletedTwice, asCommanded: figures.deletedAsCommanded, refused: figures.refused }).toEqual({
      deleted: 100,
      twice: 0,
      asCommanded: true,
      refused: 0,
    });
  }, 600_000);

  it('given no pod watch and 100 excess-pod deletions queued at once, when the forwarder applies them, then the Job\'s pods are listed once, in pages of 500, and each named pod is deleted once', async () => {
    const figures = await runScaleDown(100_000, COMMAND_BATCH_MAX, { maxAgeMs: 60 * 60_000 });

    expect(figures.lists).toBe(1);
    expect(figures.podListRequests).toBe(100_000 / JOB_POD_PAGE);
    expect(figures.largestPage).toBe(JOB_POD_PAGE);
    expect(figures.podsServed).toBe(100_000);
    expect({ deleted: figures.deleted, twice: figures.deletedTwice, asCommanded: figures.deletedAsCommanded, refused: figures.refused }).toEqual({
      deleted: 100,
      twice: 0,
      asCommanded: true,
      refused: 0,
    });
  }, 600_000);
});
