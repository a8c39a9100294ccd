import { stringify } from 'yaml';
import { printable, printableLines } from '../../shared/k8s/printable.ts';
import { ageOf } from '../../shared/k8s/human-duration.ts';

// kubectl's manners in output: tables with upper-case headers and columns three spaces apart,
// AGE as kubectl abbreviates it, `-o json|yaml` for scripts. Every human-readable cell passes
// through `printable`: names, reasons and messages come from clusters and may hold escapes.

export type OutputFormat = 'table' | 'wide' | 'json' | 'yaml';

export function parseOutput(value: string | undefined, allowed: readonly OutputFormat[]): OutputFormat {
  if (value === undefined) return 'table';
  if ((allowed as readonly string[]).includes(value) && value !== 'table') return value as OutputFormat;
  throw new Error(`-o: unknown output format "${value}" (one of ${allowed.filter((f) => f !== 'table').join(', ')})`);
}

/** A value for scripts: JSON (two-space indent) or YAML. */
export function machineOutput(value: unknown, format: 'json' | 'yaml'): string {
  return format === 'json' ? `${JSON.stringify(value, null, 2)}\n` : stringify(value, { lineWidth: 0 });
}

/** Columns three spaces apart, left-aligned, as `kubectl get` prints them. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [header, ...rows].map((row) => row.map((cell) => printable(cell)));
  const widths = header.map((_, c) => Math.max(...cells.map((row) => (row[c] ?? '').length)));
  return cells.map((row) => row.map((cell, c) => (c === row.length - 1 ? cell : cell.padEnd(widths[c] ?? 0))).join('   ').trimEnd()).join('\n') + '\n';
}

/** kubectl's AGE (duration.HumanDuration): 45s, 12m, 3h4m, 2d5h, 40d, 3y120d. */
export const age = ageOf;

/** Human text, every line escaped. */
export const human = (text: string): string => printableLines(text);
