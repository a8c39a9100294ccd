/** Left-aligned columns separated by two spaces, as kubectl prints tables. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], indent = '  '): string[] {
  const all = [header, header.map((h) => '-'.repeat(h.length)), ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((row) => (row[column] ?? '').length)));
  return all.map((row) =>
    (indent + row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0))).join('  ')).trimEnd(),
  );
}

/** `Label:` padded so that values line up, as in `kubectl describe`. */
export const field = (label: string, value: string | number): string => `${`${label}:`.padEnd(20)}${value}`;
