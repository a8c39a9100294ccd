/** Sorted, distinct indexes as an interval list (`0-2,5`), the format of completedIndexes. */
export function intervalsOf(indexes: Iterable<number>): string {
  const sorted = [...indexes].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; ) {
    const first = sorted[i]!;
    let last = first;
    while (i + 1 < sorted.length && sorted[i + 1]! <= last + 1) last = sorted[++i]!;
    i++;
    parts.push(first === last ? String(first) : `${first}-${last}`);
  }
  return parts.join(',');
}
