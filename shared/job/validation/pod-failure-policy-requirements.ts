import type { PodFailurePolicyRule } from '../../k8s/job.ts';
import { duplicate, invalid, notSupported, required, tooMany, type FieldError } from './field-error.ts';
import { goQuoteList } from './go-format.ts';
import { validateQualifiedName } from './name-formats.ts';

type OnExitCodes = NonNullable<PodFailurePolicyRule['onExitCodes']>;
type OnPodConditionsPattern = NonNullable<PodFailurePolicyRule['onPodConditions']>[number];

/** Upstream `maxPodFailurePolicyOnExitCodesValues`. */
export const MAX_ON_EXIT_CODES_VALUES = 255;
/** Upstream `maxPodFailurePolicyOnPodConditionsPatterns`. */
export const MAX_ON_POD_CONDITIONS_PATTERNS = 20;

const SUPPORTED_OPERATORS = ['In', 'NotIn'];
const SUPPORTED_STATUSES = ['False', 'True', 'Unknown'];

/**
 * A rule's `onExitCodes` (upstream `validatePodFailurePolicyRuleOnExitCodes`): operator `In` or
 * `NotIn`; `containerName`, if set, names a container or init container of the template;
 * 1 to 255 values, no duplicates, ascending, and no 0 with `In`.
 */
export function validateOnExitCodes(
  onExitCodes: OnExitCodes,
  path: string,
  containerNames: ReadonlySet<string>,
): FieldError[] {
  const errors: FieldError[] = [];
  const operatorPath = `${path}.operator`;
  const operator = onExitCodes.operator ?? '';
  if (operator === '') {
    errors.push(required(operatorPath, `valid values: ${goQuoteList(SUPPORTED_OPERATORS)}`));
  } else if (!SUPPORTED_OPERATORS.includes(operator)) {
    errors.push(notSupported(operatorPath, operator, SUPPORTED_OPERATORS));
  }
  const { containerName, values } = onExitCodes;
  if (containerName !== undefined && !containerNames.has(containerName)) {
    errors.push(
      invalid(`${path}.containerName`, containerName, 'must be one of the container or initContainer names in the pod template'),
    );
  }
  const valuesPath = `${path}.values`;
  if (values.length === 0) errors.push(invalid(valuesPath, values, 'at least one value is required'));
  else if (values.length > MAX_ON_EXIT_CODES_VALUES) errors.push(tooMany(valuesPath, values.length, MAX_ON_EXIT_CODES_VALUES));
  let isOrdered = true;
  const seen = new Set<number>();
  values.forEach((value, j) => {
    const valuePath = `${valuesPath}[${j}]`;
    if (operator === 'In' && value === 0) errors.push(invalid(valuePath, value, 'must not be 0 for the In operator'));
    if (seen.has(value)) errors.push(duplicate(valuePath, value));
    else seen.add(value);
    if (j > 0 && values[j - 1]! > value) isOrdered = false;
  });
  if (!isOrdered) errors.push(invalid(valuesPath, values, 'must be ordered'));
  return errors;
}

/**
 * A rule's `onPodConditions` (upstream `validatePodFailurePolicyRuleOnPodConditions`): at most
 * 20 patterns, each with a qualified-name `type` and a `status` of True, False or Unknown.
 * An absent status is reported as Required: batch/v1 defaulting sets it to True first.
 */
export function validateOnPodConditions(patterns: readonly OnPodConditionsPattern[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (patterns.length > MAX_ON_POD_CONDITIONS_PATTERNS) {
    errors.push(tooMany(path, patterns.length, MAX_ON_POD_CONDITIONS_PATTERNS));
  }
  patterns.forEach((pattern, j) => {
    const patternPath = `${path}[${j}]`;
    const statusPath = `${patternPath}.status`;
    errors.push(...validateQualifiedName(pattern.type ?? '', `${patternPath}.type`));
    const status = pattern.status ?? '';
    if (status === '') errors.push(required(statusPath, `valid values: ${goQuoteList(SUPPORTED_STATUSES)}`));
    else if (!SUPPORTED_STATUSES.includes(status)) errors.push(notSupported(statusPath, status, SUPPORTED_STATUSES));
  });
  return errors;
}
