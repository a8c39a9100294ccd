/** `field.ErrorType` names as the API server reports them. */
export type FieldErrorType =
  | 'FieldValueInvalid'
  | 'FieldValueDuplicate'
  | 'FieldValueNotSupported'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueRequired'
  | 'FieldValueForbidden';

/**
 * One violation. `detail` is upstream's message verbatim. Where the webhook reports a plain
 * error without a field (`fmt.Errorf`), `field` is the path of the value the message is about.
 */
export interface JobSetValidationError {
  readonly field: string;
  readonly type: FieldErrorType;
  readonly detail: string;
  readonly badValue?: unknown;
}

/** Feature gates of the JobSet controller that change what admission accepts. */
export interface JobSetFeatureGates {
  readonly RestartJob?: boolean;
  readonly InPlaceRestart?: boolean;
}

export const invalid = (field: string, detail: string, badValue?: unknown): JobSetValidationError =>
  badValue === undefined
    ? { field, type: 'FieldValueInvalid', detail }
    : { field, type: 'FieldValueInvalid', detail, badValue };

/**
 * What the CRD schema reports for a number under its `minimum` (kube-openapi's `ExceedsMinimum`,
 * kept whole as the detail): `<path> in body should be greater than or equal to <minimum>`.
 */
export const belowMinimum = (field: string, badValue: number, minimum: number): JobSetValidationError => ({
  field,
  type: 'FieldValueInvalid',
  detail: `${field} in body should be greater than or equal to ${minimum}`,
  badValue,
});

/** `field.NotSupported`: the detail lists the supported values quoted, comma separated. */
export const notSupported = (
  field: string,
  badValue: string,
  supported: readonly string[],
): JobSetValidationError => ({
  field,
  type: 'FieldValueNotSupported',
  detail: `supported values: ${supported.map((value) => `"${value}"`).join(', ')}`,
  badValue,
});
