import fc from 'fast-check';

// Which cases the property tests draw (README, "Tests").
//  - `npm test` (and CI) draws them from one fixed seed: the same commit gives the same run, so a
//    red CI is a change's doing, and anyone can replay it.
//  - `npm run test:explore` draws a new seed on every run, to find cases no one has tried yet
//    (JOBFOLD_PROPERTY_SEED=random). Run it often; a counterexample it finds becomes a
//    deterministic given/when/then spec beside the property, then gets fixed.
//  - A failure prints `{ seed, path }`; JOBFOLD_PROPERTY_SEED=<seed> JOBFOLD_PROPERTY_PATH=<path>
//    replays it from the shrunk counterexample (run only the failing file: both apply to every
//    property in the files run).
// A property that passes its own `seed` to fc.assert keeps it.
export const CI_PROPERTY_SEED = 20_261_127;

const seed = process.env.JOBFOLD_PROPERTY_SEED;
const path = process.env.JOBFOLD_PROPERTY_PATH;
if (seed !== 'random') {
  const chosen = seed === undefined || seed === '' ? CI_PROPERTY_SEED : Number(seed);
  if (!Number.isSafeInteger(chosen)) throw new Error(`JOBFOLD_PROPERTY_SEED: expected an integer or "random", got ${JSON.stringify(seed)}`);
  fc.configureGlobal({ seed: chosen, ...(path ? { path, endOnFailure: true } : {}) });
}
