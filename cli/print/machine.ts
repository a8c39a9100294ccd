import { stringify } from 'yaml';

// The one JSON printer (and its YAML twin for `-o yaml`): what `--json` and `-o json|yaml` print
// is the object itself, the same value the API serves or the command computed, never a text
// rendering. Two-space indent, as `kubectl get -o json`.

export const printJson = (value: unknown): string => JSON.stringify(value, null, 2);

export const printYaml = (value: unknown): string => stringify(value, { lineWidth: 0 }).replace(/\n$/, '');

/** `-o json` or `-o yaml`. */
export const printMachine = (value: unknown, format: 'json' | 'yaml'): string => (format === 'json' ? printJson(value) : printYaml(value));
