import { JOBFOLD_CONTROLLER_NAME } from '../../../../shared/k8s/job-controller.ts';
import { TraceRecorder } from '../../../../local/sample/trace-recorder.ts';
import { playTrace } from './service-fleet.ts';

// Jobs whose commands the commands list and `jobfold commands` are tested on.

/** An Indexed Job of 60 pods whose leader succeeds while 30 still run: one decision terminates 30 pods. */
export function trainTrace(): TraceRecorder {
  const trace = new TraceRecorder('2026-03-01T00:00:00Z', 'c0de');
  const job = trace.job('c1', 0, 'ml', 'train', {
    completions: 60, parallelism: 60, completionMode: 'Indexed', backoffLimit: 100,
    successPolicy: { rules: [{ succeededIndexes: '0' }] },
  });
  const pods = Array.from({ length: 60 }, (_, i) => trace.runPod(job, 1, i));
  for (let i = 1; i < 30; i++) trace.exitPod(pods[i]!, 1 + i, 0);
  trace.exitPod(pods[0]!, 60, 0);
  for (let i = 30; i < 60; i++) trace.deletePod(pods[i]!, 65);
  return trace;
}

/** A Job jobfold manages: it creates the pods and writes the status (UpdateJobStatus commands). */
export function managedTrace(): TraceRecorder {
  const trace = new TraceRecorder('2026-03-02T00:00:00Z', 'feed');
  const job = trace.job('c1', 0, 'ml', 'managed', { completions: 2, parallelism: 2, managedBy: JOBFOLD_CONTROLLER_NAME });
  const pods = [0, 1].map(() => trace.runPod(job, 1, undefined));
  pods.forEach((pod, i) => trace.exitPod(pod, 2 + i, 0));
  return trace;
}

/** Plays a trace through the writer, one delivery per instant; the Job's stream. */
export const play = playTrace;
