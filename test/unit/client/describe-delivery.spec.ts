import { describe, expect, it } from 'vitest';
import { InMemoryEventStore } from '../../../shared/log/in-memory-event-store.ts';
import { describeJobView } from '../../../cli/client/describe-command.ts';
import { aJob, aPod, at, withSpec } from '../../support/builders.ts';
import { jobObservedEvent, jobStream, podObservedEvent, SERVICE_CLUSTER } from '../../support/inbound-events.ts';
import { jobPath, queryClient } from '../query/support/query-client.ts';
import { aService, deliverAt, tickAt, type Service } from '../query/support/service-fleet.ts';

// `jobfold describe job` says how far each command got in the words of what the service knows
// (queued; then the pods the cluster was seen deleting), never "delivered", and shows a refused
// update with upstream's field errors.

const describeJob = async (service: Service, name: string) => {
  const get = queryClient(service);
  const path = jobPath(SERVICE_CLUSTER, 'default', name);
  const [view, explanation] = await Promise.all([get(path), get(`${path}/explain`)]);
  return describeJobView(view.body, explanation.body);
};

describe('Given a Job past its deadline whose running pod jobfold terminates', () => {
  it('says the termination is queued, then how many of its pods the cluster was seen deleting', async () => {
    const service = aService(new InMemoryEventStore());
    const job = aJob({ completions: 1, parallelism: 1, activeDeadlineSeconds: 5 }, { name: 'late', uid: 'late-uid' });
    const pod = (extra = {}) => aPod({ name: 'late-a', uid: 'late-a-uid', ...extra });
    await deliverAt(service, at(0), [jobObservedEvent(job, at(0)), podObservedEvent(pod(), job, at(0))]);
    await tickAt(service, jobStream(job), at(10));
    expect(await describeJob(service, 'late')).toMatch(/TerminatePod\s+queued, none seen deleting/);

    await deliverAt(service, at(11), [podObservedEvent(pod({ deletionTimestamp: at(11) }), job, at(11))]);
    const text = await describeJob(service, 'late');
    expect(text).toMatch(/TerminatePod\s+queued, 1\/1 seen deleting \(#\d+\)/);
    expect(text).not.toMatch(/delivered|\bsent\b/);
  });
});

describe('Given a Job whose update the API server would refuse', () => {
  it('prints the refused update and its field error', async () => {
    const service = aService(new InMemoryEventStore());
    const job = aJob({ completions: 1, parallelism: 1 }, { name: 'resized', uid: 'resized-uid' });
    await deliverAt(service, at(0), [jobObservedEvent(job, at(0))]);
    await deliverAt(service, at(1), [jobObservedEvent(withSpec(job, { completionMode: 'Indexed' }), at(1), { eventId: 'resized/indexed' })]);
    const text = await describeJob(service, 'resized');
    expect(text).toContain('Refused Update: resized/indexed');
    expect(text).toMatch(/\n {2}spec\.completionMode: Invalid value: "Indexed": field is immutable \(FieldValueInvalid\)/);
  });
});
