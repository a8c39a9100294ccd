/**
 * `apiequality.Semantic.DeepEqual` over parsed batch/v1 JSON, as upstream's immutability
 * checks (`ValidateImmutableField`) compare: deep structural equality in which an unset list
 * equals an empty one (Go's nil and empty slices). An unset scalar or object (a nil pointer)
 * still differs from any set value, `""` and `0` included.
 */
export function isSemanticallyEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isUnset(a) || isUnset(b)) {
    return (isUnset(a) && isUnset(b)) || isEmptyList(a) || isEmptyList(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => isSemanticallyEqual(item, b[i]));
  }
  if (typeof a === 'object' && typeof b === 'object') {
    const left = a as Record<string, unknown>;
    const right = b as Record<string, unknown>;
    const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
    for (const key of keys) {
      if (!isSemanticallyEqual(left[key], right[key])) return false;
    }
    return true;
  }
  return false;
}

function isUnset(value: unknown): boolean {
  return value === undefined || value === null;
}

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}
