/**
 * The conformance runner's contract. Each corpus format is a `CorpusKind`: it recognises its
 * files by shape and runs one file into a result. The runner (run.ts) discovers files, picks
 * the kind, and prints failures as field-level diffs.
 */

/** One field that differs from what the scenario expects. */
export interface FieldDiff {
  /** Where the check was made, e.g. `checkpoint 2 (after event 11)` or `validation`. */
  readonly at: string;
  /** Dotted path of the field, e.g. `status.conditions[0].reason`. */
  readonly path: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

export interface ScenarioResult {
  readonly id: string;
  readonly file: string;
  readonly diffs: readonly FieldDiff[];
  /** Set when the scenario could not be run at all (malformed file, crash). */
  readonly error?: string;
}

export interface CorpusKind {
  readonly name: string;
  /** True when the parsed JSON document is a scenario of this kind. */
  matches(document: unknown): boolean;
  run(document: unknown, file: string): ScenarioResult;
}
