import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { crashesOf } from '../../support/crashing-run.ts';
import { REPLICAS, run } from './exactly-once-support.ts';

// Exactly once in effect, for JobSets: a managed JobSet whose syncs take several commit steps
// (each Job Creation Requested travels with its own decision; steps are cut small here), and
// which later restarts on a failed Job. A crash before or after any commit step, then the
// delivery again, leaves the log a run without a crash writes (the rest decided where and when
// the sync was first decided) and publishes every command once, under the id it has without a
// crash.

describe('given a managed JobSet whose syncs take several commit steps', () => {
  it('when the writer dies before or after any step and the batch is delivered again, then the log and every command are those of a run without a crash', async () => {
    const reference = await run('js-uid', new InMemoryEventStore());
    expect(reference.stepsPerBatch[0]).toBeGreaterThanOrEqual(3);
    expect(reference.ids.filter((id) => id.startsWith('Job Creation Requested'))).toHaveLength(REPLICAS);
    expect(reference.ids.filter((id) => id.startsWith('Job Deletion Requested'))).toHaveLength(REPLICAS);
    expect(new Set(reference.ids).size).toBe(reference.ids.length);
    const crashes = crashesOf(reference.stepsPerBatch);
    expect(crashes.length).toBeGreaterThanOrEqual(10);
    for (const crash of crashes) {
      const crashed = await run('js-uid', new InMemoryEventStore(), crash);
      const where = `${crash.point} step ${crash.step} of batch ${crash.batch}`;
      expect(crashed.crashes, where).toBe(1);
      expect(crashed.log, where).toEqual(reference.log);
      expect(crashed.ids, where).toEqual(reference.ids);
    }
  });
});
