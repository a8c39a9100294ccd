import type { FeatureGates } from '../k8s/feature-gates.ts';
import type { FoldConfig } from '../job/state.ts';
import { FOLD_VERSION } from './fold-version.ts';

/**
 * What a decision read, recorded with it in the log: the log head it was decided at, that
 * entry's chain hash, and the fold version and feature gates that decided it. An auditor can
 * check the head against the chain and refold with the same gates.
 */
export interface DecisionRead {
  readonly head: number;
  /** The `hash` of the entry at `head` (absent while the store does not chain its entries). */
  readonly chainHead?: string;
  readonly foldVersion: string;
  /** The Job fold's gates (a JobSet's decisions record none). */
  readonly gates: Partial<FeatureGates>;
  /**
   * How many decisions (pages included) the sync at `head` logged, when the log writer logged
   * them: a writer that finds fewer after `head` knows a crash cut the sync short.
   */
  readonly decisions?: number;
}

export function decisionRead(head: number, chainHead: string | undefined, config: FoldConfig): DecisionRead {
  return { head, ...(chainHead === undefined ? {} : { chainHead }), foldVersion: FOLD_VERSION, gates: config.gates };
}

/** A decision entry's body with what it read. */
export function withRead<E extends { body: unknown }>(entry: E, read: DecisionRead): E {
  return { ...entry, body: { ...(entry.body as Record<string, unknown>), read } };
}
