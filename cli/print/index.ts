import { explanationBlocks, type AnyExplanation } from './explanation.ts';
import { jobDescription, type JobDescription } from './job.ts';
import { jobSetDescription, type JobSetDescription } from './jobset.ts';
import { field, printText, section, type Block } from './text.ts';

// jobfold's printers, as kubectl's: one text printer (text.ts) and one JSON printer (machine.ts)
// written once, one `describe` frame, and per kind of object a printer of its own fields (job.ts,
// jobset.ts: a Job's pods and a JobSet's child Jobs have little in common). Every command that
// prints an object for a person comes here: `jobfold replay`, `describe`, `explain`, `whatif`,
// `advise`, `verify`, and `npm start`'s report.

export type Description = JobDescription | JobSetDescription;

/**
 * `kubectl describe`'s output for a Job or a JobSet, from the service's view or a replay: the
 * same frame for every kind (who it is, where the description comes from, the explanation
 * last) around the kind's own body.
 */
export function describe(description: Description): string {
  const object = description.kind === 'Job' ? description.view.job : description.jobSet;
  const { explanation, origin: [label, text] } = description;
  const blocks = [
    field('Name', object.name),
    field('Namespace', object.namespace),
    ...(object.clusterId === undefined ? [] : [field('Cluster', object.clusterId)]),
    field('Uid', object.uid || '<unknown>'),
    field(label, text),
    ...body(description),
    explanation === undefined ? field('Explanation', '<nothing replayed>') : section('Explanation', explanationBlocks(explanation)),
  ];
  return printText({ blocks, labelWidth: 20 });
}

function body(description: Description): Block[] {
  switch (description.kind) {
    case 'Job':
      return jobDescription(description);
    case 'JobSet':
      return jobSetDescription(description);
    default: {
      const exhaustive: never = description;
      throw new Error(`no printer for ${JSON.stringify(exhaustive)}`);
    }
  }
}

/** Why a Job or JobSet stands where it does, one fact per line. */
export const explain = (explanation: AnyExplanation): string => printText(explanationBlocks(explanation));

export { adviceBlocks } from './advice.ts';
export { printJson, printMachine, printYaml } from './machine.ts';
export { printText, field, indented, line, lines, list, section, table, type Block, type Document } from './text.ts';
export { fleetReport, type ReportedObject } from './fleet-report.ts';
export { verifyReport } from './audit.ts';
export { fleetWhatIfBlocks, whatIfBlocks } from './whatif.ts';
export type { AnyExplanation } from './explanation.ts';
export type { JobDescription, JobCommands } from './job.ts';
export type { ChildJobLine, JobSetCommands, JobSetDescription } from './jobset.ts';
