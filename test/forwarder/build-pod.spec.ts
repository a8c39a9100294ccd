import type { V1Job } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { buildPod, COMMAND_ID_ANNOTATION, generateNameWithIndex } from '../../forwarder/commands/build-pod.ts';
import { aJob } from './objects.ts';

const job = (options: Parameters<typeof aJob>[0] = {}) => aJob(options) as unknown as V1Job;

describe('buildPod', () => {
  describe('for a NonIndexed Job', () => {
    it('uses generateName <job>- and sets no index, hostname or JOB_COMPLETION_INDEX', () => {
      const pod = buildPod(job({ name: 'etl' }), undefined, 'cmd-1');

      expect(pod.metadata?.generateName).toBe('etl-');
      expect(pod.metadata?.annotations).toEqual({ team: 'batch', [COMMAND_ID_ANNOTATION]: 'cmd-1' });
      expect(pod.metadata?.labels?.['batch.kubernetes.io/job-completion-index']).toBeUndefined();
      expect(pod.spec?.hostname).toBeUndefined();
      expect(pod.spec?.containers[0]?.env).toEqual([{ name: 'MODE', value: 'test' }]);
    });

    it('adds the job-tracking finalizer and a controller ownerReference to the Job', () => {
      const source = job({ name: 'etl' });
      const pod = buildPod(source, undefined, 'cmd-1');

      expect(pod.metadata?.finalizers).toEqual(['batch.kubernetes.io/job-tracking']);
      expect(pod.metadata?.ownerReferences).toEqual([
        { apiVersion: 'batch/v1', kind: 'Job', name: 'etl', uid: source.metadata?.uid, controller: true, blockOwnerDeletion: true },
      ]);
      expect(pod.metadata?.namespace).toBe('default');
    });
  });

  describe('for an Indexed Job', () => {
    it('does not add JOB_COMPLETION_INDEX twice when the template already has it', () => {
      const source = job({ name: 'train', completionMode: 'Indexed' });
      source.spec?.template.spec?.containers[0]?.env?.push({ name: 'JOB_COMPLETION_INDEX', value: 'mine' });

      const pod = buildPod(source, 1, 'cmd-1');

      expect(pod.spec?.containers[0]?.env?.filter((v) => v.name === 'JOB_COMPLETION_INDEX')).toEqual([{ name: 'JOB_COMPLETION_INDEX', value: 'mine' }]);
    });

    it('leaves the Job template untouched', () => {
      const source = job({ name: 'train', completionMode: 'Indexed' });
      const before = structuredClone(source);

      buildPod(source, 3, 'cmd-1');

      expect(source).toEqual(before);
    });
  });

  it.each([
    ['short-job', 7, 'short-job-7-'],
    ['a'.repeat(63), 12, `${'a'.repeat(54)}-12-`],
  ])('generateName for %s index %i is %s, at most 58 characters (upstream podGenerateNameWithIndex)', (name, index, expected) => {
    expect(generateNameWithIndex(name, index)).toBe(expected);
    expect(generateNameWithIndex(name, index).length).toBeLessThanOrEqual(58);
  });
});
