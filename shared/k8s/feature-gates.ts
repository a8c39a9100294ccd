/**
 * Feature gates jobfold honours. Every Job feature that is GA upstream is always on; the one
 * gate left is KEP-4443's `PodFailurePolicyName`, which upstream would default off (alpha) and
 * jobfold deployments default on.
 */
export interface FeatureGates {
  readonly PodFailurePolicyName: boolean;
}

/** The default of a jobfold deployment. */
export const JOBFOLD_DEFAULT_GATES: FeatureGates = { PodFailurePolicyName: true };

/** Upstream's default, used where a scenario names no gate. */
export const UPSTREAM_DEFAULT_GATES: FeatureGates = { PodFailurePolicyName: false };
