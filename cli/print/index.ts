import { explanationBlocks, type AnyExplanation } from './explanation.ts';
import { jobDescription, type JobDescription } from './job.ts';
import { jobSetDescription, type JobSetDescription } from './jobset.ts';
import { printText } from './text.ts';

// jobfold's printers, as kubectl's: one text printer (text.ts) and one JSON printer (machine.ts)
// written once, and per kind of object a printer that builds the document the text printer lays
// out. Every command that prints an object for a person comes here: `jobfold replay`,
// `describe`, `explain`, `whatif`, `advise`, `verify`, and `npm start`'s report.

export type Description = JobDescription | JobSetDescription;

/** `kubectl describe`'s output for a Job or a JobSet, from the service's view or a replay. */
export function describe(description: Description): string {
  switch (description.kind) {
    case 'Job':
      return printText(jobDescription(description));
    case 'JobSet':
      return printText(jobSetDescription(description));
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
