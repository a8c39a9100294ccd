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
export function age(since: string | undefined, nowMs: number): string {
  if (since === undefined) return '<unknown>';
  const seconds = Math.floor((nowMs - Date.parse(since)) / 1000);
  if (!Number.isFinite(seconds)) return '<unknown>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 192) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (days < 730) return `${days}d`;
  const years = Math.floor(days / 365);
  if (years < 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}
