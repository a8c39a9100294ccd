import { formatBadValue, supportedValues } from './go-format.ts';

/** Upstream's `field.ErrorType` names (k8s.io/apimachinery/pkg/util/validation/field). */
export type FieldErrorType =
  | 'FieldValueInvalid'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueTooMany'
  | 'FieldValueTooLong'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden';

/** One validation failure, as upstream's `field.Error` reports it. */
export interface FieldError {
  /** Upstream field path, e.g. `spec.podFailurePolicy.rules[0].onExitCodes.values[1]`. */
  readonly field: string;
  readonly type: FieldErrorType;
  /** The offending value; absent where upstream reports none (Required, Forbidden). */
  readonly badValue?: unknown;
  /** What is wrong, e.g. `must be greater than or equal to 0`; may be empty (Duplicate). */
  readonly detail: string;
  /** Upstream's full text, e.g. `spec.parallelism: Invalid value: -1: must be greater than or equal to 0`. */
  readonly message: string;
}

/** Upstream's `ErrorType.String()`: the words each message starts with. */
const TYPE_WORDS: Readonly<Record<FieldErrorType, string>> = {
  FieldValueInvalid: 'Invalid value',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueTooMany: 'Too many',
  FieldValueTooLong: 'Too long',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
};

/** Stands for upstream's `field.OmitValueType{}`: the message prints no value. */
const OMIT_VALUE: unique symbol = Symbol('OmitValue');

function createFieldError(
  field: string,
  type: FieldErrorType,
  badValue: unknown,
  detail: string,
): FieldError {
  // Mirrors field.Error.ErrorBody: these types never print the value.
  const hidesValue =
    type === 'FieldValueRequired' ||
    type === 'FieldValueForbidden' ||
    type === 'FieldValueTooLong' ||
    badValue === OMIT_VALUE;
  const words = TYPE_WORDS[type];
  const body = hidesValue ? words : `${words}: ${formatBadValue(badValue)}`;
  const message = `${field}: ${body}${detail === '' ? '' : `: ${detail}`}`;
  const error = { field, type, detail, message };
  return hidesValue && type !== 'FieldValueTooLong' ? error : { ...error, badValue };
}

/** `field.Invalid`. */
export function invalid(field: string, badValue: unknown, detail: string): FieldError {
  return createFieldError(field, 'FieldValueInvalid', badValue, detail);
}

/** `field.Invalid(path, field.OmitValueType{}, detail)`: invalid, with no value to show. */
export function invalidWithoutValue(field: string, detail: string): FieldError {
  return createFieldError(field, 'FieldValueInvalid', OMIT_VALUE, detail);
}

/** `field.Required`. */
export function required(field: string, detail: string): FieldError {
  return createFieldError(field, 'FieldValueRequired', undefined, detail);
}

/** `field.Duplicate`. */
export function duplicate(field: string, badValue: unknown): FieldError {
  return createFieldError(field, 'FieldValueDuplicate', badValue, '');
}

/** `field.NotSupported`, with the valid values in the order upstream lists them. */
export function notSupported(field: string, badValue: unknown, validValues: readonly string[]): FieldError {
  return createFieldError(field, 'FieldValueNotSupported', badValue, supportedValues(validValues));
}

/** `field.TooMany`: the bad value is the item count. */
export function tooMany(field: string, actualQuantity: number, maxQuantity: number): FieldError {
  return createFieldError(field, 'FieldValueTooMany', actualQuantity, `must have at most ${maxQuantity} items`);
}

/** `field.TooLong`: `must have at most N bytes`. */
export function tooLong(field: string, badValue: string, maxLength: number): FieldError {
  return createFieldError(field, 'FieldValueTooLong', badValue, `must have at most ${maxLength} bytes`);
}

/** `field.TooLongMaxLength`: `may not be longer than N`. */
export function tooLongMaxLength(field: string, badValue: string, maxLength: number): FieldError {
  return createFieldError(field, 'FieldValueTooLong', badValue, `may not be longer than ${maxLength}`);
}

/** `field.Forbidden`. */
export function forbidden(field: string, detail: string): FieldError {
  return createFieldError(field, 'FieldValueForbidden', undefined, detail);
}

/** apivalidation.IsNegativeErrorMsg. */
export const IS_NEGATIVE_ERROR_MSG = 'must be greater than or equal to 0';

/** apivalidation.FieldImmutableErrorMsg. */
export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';

/** `apivalidation.ValidateNonnegativeField`: checks a set numeric field. */
export function validateNonnegativeField(value: number | undefined, field: string): FieldError[] {
  return value !== undefined && value < 0 ? [invalid(field, value, IS_NEGATIVE_ERROR_MSG)] : [];
}
