import { describe, expect, it } from 'vitest';
import { runServicePathBench } from '../../../bench/service-path.ts';

// The service-path bench drives the service as `npm start` runs it, in its own process, and
// reads everything through its routes. Given a small Indexed Job of realistic pods (a real pod's
// shape through the forwarder's trim) whose pod events the SDK client puts as the forwarder's
// packer packs them (the headline feed), when the leader succeeds and the
// cluster deletes each commanded pod, then the checks the bench prints hold and every figure it
// reads from the service's routes is there. No timing is asserted.

describe('bench/service-path.ts against local/start.ts in its own process', () => {
  it('terminates every lingering pod once, reaches Complete, and reads capacity, memory and CPU from the service', async () => {
    const figures = await runServicePathBench({ pods: 60, failEvery: 7, feeders: 3 });

    expect(figures.feed).toBe('packed');
    expect(figures.podShape).toBe('realistic');
    // A trimmed real pod is ~2.5 KB of JSON; packs compress a Job's pods, whose fields repeat.
    expect(figures.bytesPerPodEvent.unpacked).toBeGreaterThan(2000);
    expect(figures.bytesPerPodEvent.packed).toBeLessThan(figures.bytesPerPodEvent.unpacked);
    expect(figures.packedAtEventsPerSecond).toBe(2000);
    // A 50 ms window at 2,000 events/s gathers up to 100: the 60 runs, the exits, the deletions.
    expect(figures.podEventsPerEntry).toBeGreaterThan(10);
    expect(figures.lingeringPods).toBeGreaterThan(20);
    expect(figures.lingeringPodsTerminatedOnce).toBe(figures.lingeringPods);
    expect(figures.terminationCommands).toBe(figures.lingeringPods);
    expect(figures.podsCommandedTwiceOrMore).toBe(0);
    expect(figures.podsCommandedNotLingering).toBe(0);
    expect(figures.completeAfterDeletions).toBe(true);
    expect(figures.servicePodEvents).toBe(60 + (60 - 1 - figures.lingeringPods) + 1 + figures.lingeringPods);
    expect(figures.wcuPerPodEvent).toBeGreaterThan(0);
    expect(figures.wcuByOperation['PutItem']).toBeGreaterThan(0);
    expect(figures.servicePeakRssMb).toBeGreaterThan(20);
    expect(figures.cpuMsPerPodEvent.service).toBeGreaterThan(0);
    expect(figures.cpuMsPerPodEvent.feeder).toBeGreaterThan(0);
  }, 120_000);
});
