import { sameSummaries } from './decision-summary.ts';
import type { ReconcileAt, RecordReading, Refolding } from './refold.ts';
import type { DivergenceOf } from './report.ts';

// The what-if's two folds side by side (what-if.ts tells the flow), written once for every kind;
// a kind gives its fold and its hooks (job-folds.ts, jobset-folds.ts).

/** Thrown when the log holds no object to patch. */
export class WhatIfInputError extends Error {
  override name = 'WhatIfInputError';
}

/**
 * A kind's fold as the what-if drives it: how its log reads (`Recorded`, a decision as logged),
 * and one reconcile (`Decided`, what its decide returns), applied and compared.
 */
export interface KindFold<Entry, Recorded, State, Decided, Summary> {
  readonly reading: RecordReading<Entry, Recorded>;
  /** The position of an observation in the log. */
  position(entry: Entry, lastRead: number): number;
  evolve(state: State, entry: Entry): State;
  decide(state: State, at: string): Decided;
  /** The state after a reconcile's decisions. */
  apply(state: State, decided: Decided): State;
  /** What a reconcile's decisions are compared as. */
  summarize(decided: Decided): Summary[];
}

/**
 * The two folds of a kind side by side, and the comparison every kind makes. A kind gives its
 * fold, the observation as the patched world sees it, what it notes of the patched fold's
 * decisions and its report; its hooks (observed, compared, comparable, closing) do nothing
 * unless it overrides them.
 */
export abstract class Folds<Entry, Recorded, State, Decided, Summary, Reached> implements Refolding<Entry, Recorded> {
  protected lastRead = 0;
  protected divergence: DivergenceOf<Summary> | undefined;
  /** The patched fold's outcome, once settled. */
  protected reached: Reached | undefined;
  closed = false;
  wake: number | undefined;

  protected original: State;
  protected patched: State;

  private readonly fold: KindFold<Entry, Recorded, State, Decided, Summary>;

  protected constructor(fold: KindFold<Entry, Recorded, State, Decided, Summary>, original: State, patched: State) {
    this.fold = fold;
    this.original = original;
    this.patched = patched;
  }

  /** The observation as the patched world sees it, or undefined when that world never had it. */
  protected abstract asPatched(entry: Entry): Entry | undefined;
  /** Takes note of what the patched fold decided at `at` (its outcome). */
  protected abstract note(decided: Decided, at: string): void;

  observe(entry: Entry): void {
    this.lastRead = this.fold.position(entry, this.lastRead);
    this.original = this.fold.evolve(this.original, entry);
    const patched = this.asPatched(entry);
    if (patched === undefined) return;
    this.patched = this.fold.evolve(this.patched, patched);
    if (!this.divergence) this.observed(entry);
  }

  /**
   * One reconcile of both folds. Where the record holds no reconcile, the folds are only asked
   * whether the patched one would act: if it would not, or both would do the same, the record's
   * controller did not reconcile there and neither fold changes.
   */
  reconcile(at: string, where: ReconcileAt<Recorded>): void {
    const original = this.fold.decide(this.original, at);
    const patched = this.fold.decide(this.patched, at);
    const o = this.fold.summarize(original);
    const p = this.fold.summarize(patched);
    this.compared(at, where, original, patched, o);
    const differ = !sameSummaries(this.comparable(o), p);
    if (where.kind !== 'record' && !this.divergence && (p.length === 0 || !differ)) return;
    if (differ && !this.divergence) {
      this.divergence = { atEvent: this.lastRead, at, by: 'reconcile', recorded: o, whatIf: p };
    }
    this.original = this.fold.apply(this.original, original);
    this.patched = this.fold.apply(this.patched, patched);
    this.note(patched, at);
    if (!this.divergence) return;
    this.closed = true;
    this.closing(original, patched, at);
  }

  /** After an observation both folds read, before any divergence. */
  protected observed(_entry: Entry): void {}
  /** After both folds decided at `at`, before they are compared. */
  protected compared(_at: string, _where: ReconcileAt<Recorded>, _original: Decided, _patched: Decided, _o: readonly Summary[]): void {}
  /** The recorded fold's summaries as the patched fold's are compared with. */
  protected comparable(o: Summary[]): readonly Summary[] {
    return o;
  }
  /** At the divergence's reconcile, the last one the record is evidence for. */
  protected closing(_original: Decided, _patched: Decided, _at: string): void {}
}
