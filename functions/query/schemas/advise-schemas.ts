import * as z from 'zod';
import { apiSchemas } from './registry.ts';

// The advice's pages (shared/advise/evidence.ts, check.ts) as the routes serve them.

const JobRefSchema = z.strictObject({ cluster: z.string(), namespace: z.string(), name: z.string(), uid: z.string() });
const ExampleSchema = z.strictObject({ job: JobRefSchema, pod: z.string().optional() });
const FailureTallySchema = z.strictObject({
  failures: z.number().int(),
  jobs: z.number().int(),
  retrySucceeded: z.number().int().meta({ description: 'Failures after which a retry succeeded (the Job, or the failed index).' }),
  podSeconds: z.number(),
  containers: z.record(z.string(), z.number().int()),
  examples: z.array(ExampleSchema),
});

export const FamilyEvidenceSchema = z
  .strictObject({
    id: z.string().meta({ description: '`<namespace>/<family key>`.' }),
    family: z.strictObject({ namespace: z.string(), by: z.enum(['cronjob', 'prefix', 'labels', 'job']), key: z.string() }),
    clusters: z.array(z.string()),
    jobs: z.number().int(),
    succeeded: z.number().int(),
    failed: z.number().int(),
    podSeconds: z.number(),
    newest: z.strictObject({
      createdAt: z.string(),
      job: JobRefSchema,
      spec: z.record(z.string(), z.unknown()).meta({ description: 'The newest Job\'s policy fields, restartPolicy and container names.' }),
    }),
    exitCodes: z.record(z.string(), FailureTallySchema).meta({ description: 'Failures by exit code, of pods that fell to the default handling, not disrupted.' }),
    disruptions: FailureTallySchema.meta({ description: 'Counted failures of pods with DisruptionTarget.' }),
    successNeeds: z.strictObject({ failed: z.number().int(), failedWithoutDisruptions: z.number().int(), restarts: z.number().int() }),
    perIndexNeeds: z.strictObject({ failed: z.number().int(), failedWithoutDisruptions: z.number().int() }),
    mostFailures: z.number().int(),
    successSeconds: z.array(z.number()),
    longestRun: z.strictObject({ seconds: z.number(), job: JobRefSchema }).optional(),
    leader: z.strictObject({ jobs: z.number().int(), withWorkersTerminated: z.number().int(), workerSecondsAfter: z.number(), examples: z.array(ExampleSchema) }),
  })
  .register(apiSchemas, { id: 'FamilyEvidence', description: 'What a family\'s finished Jobs in one page say (docs/advise.md); pages merge by id.' });

export const AdviseEvidencePageSchema = z
  .strictObject({
    jobs: z.number().int().meta({ description: 'Finished Jobs the selection took in this call.' }),
    evidence: z.array(FamilyEvidenceSchema),
    nextCursor: z.string().optional(),
  })
  .register(apiSchemas, { id: 'AdviseEvidencePage', description: 'One call of the advice\'s mining pass.' });

const DivergenceEvidenceSchema = z.strictObject({ atEvent: z.number().int(), at: z.string(), recorded: z.string(), whatIf: z.string() });

export const ProposalCheckSchema = z
  .strictObject({
    jobs: z.number().int(),
    unchanged: z.number().int(),
    decidedEarlier: z.number().int(),
    decidedLater: z.number().int(),
    outcomeChanged: z.number().int(),
    podSecondsSaved: z.number(),
    harm: z.array(
      z.strictObject({
        job: JobRefSchema,
        harm: z.enum(['fails', 'later', 'unknown']).meta({ description: 'fails: a success would fail; later: the outcome settles later; unknown: past the evidence before the record\'s outcome.' }),
        recorded: z.string(),
        whatIf: z.string(),
        divergence: DivergenceEvidenceSchema,
      }),
    ),
    examples: z.array(z.strictObject({ job: JobRefSchema, recorded: z.string(), whatIf: z.string(), podSecondsSaved: z.number() })),
    notReplayable: z.array(z.strictObject({ job: JobRefSchema, divergence: DivergenceEvidenceSchema })),
    refused: z.array(z.strictObject({ job: JobRefSchema, reason: z.string() })),
  })
  .register(apiSchemas, { id: 'ProposalCheck', description: 'One proposal over the Jobs of its family, by exact what-if; pages merge.' });

export const AdviseCheckPageSchema = z
  .strictObject({
    jobs: z.number().int().meta({ description: 'Finished Jobs of the proposals\' families read in this call.' }),
    checks: z.array(z.strictObject({ proposal: z.string(), check: ProposalCheckSchema })),
    nextCursor: z.string().optional(),
  })
  .register(apiSchemas, { id: 'AdviseCheckPage', description: 'One call of the advice\'s check pass.' });
