import { ageOf } from '../../shared/k8s/human-duration.ts';
import { list, printMachine, printText } from '../print/index.ts';

// kubectl's manners in output: tables with upper-case headers and columns three spaces apart,
// AGE as kubectl abbreviates it, `-o json|yaml` for scripts; printed by the one text and JSON
// printers (cli/print), which escape every cell (names, reasons and messages come from clusters).

export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml';

export function parseOutput(value: string | undefined, allowed: readonly OutputFormat[]): OutputFormat {
  if (value === undefined) return 'table';
  if ((allowed as readonly string[]).includes(value) && value !== 'table') return value as OutputFormat;
  throw new Error(`-o: unknown output format "${value}" (one of ${allowed.filter((f) => f !== 'table').join(', ')})`);
}

/** A value for scripts: JSON (two-space indent) or YAML, as the one JSON printer writes them. */
export const machineOutput = (value: unknown, format: 'json' | 'yaml'): string => `${printMachine(value, format)}\n`;

/** Columns three spaces apart, left-aligned, as `kubectl get` prints them. */
export const table = (header: readonly string[], rows: readonly (readonly string[])[]): string => `${printText([list(header, rows)])}\n`;

/** kubectl's AGE (duration.HumanDuration): 45s, 12m, 3h4m, 2d5h, 40d, 3y120d. */
export const age = ageOf;
