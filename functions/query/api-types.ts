import type * as z from 'zod';
import type { JobCommandsPageSchema, JobSetCommandsPageSchema, PagedJobCommandSchema } from './commands/commands-schemas.ts';
import type { FleetItemSchema, FleetOverviewSchema, JobIndexesSchema, JobTimelineSchema } from './console/console-schemas.ts';
import type { JobSetCommandSchema, JobSetViewSchema } from './jobsets/jobset-schemas.ts';
import type { JobSetExplanationSchema } from './jobsets/jobset-explanation-schemas.ts';
import type { ConditionViewSchema, ObjectIdentitySchema } from './schemas/common-schemas.ts';
import type { ExplanationSchema } from './schemas/explanation-schemas.ts';
import type { HistoryEntrySchema, HistoryPageSchema } from './schemas/history-schemas.ts';
import type { IssuedCommandSchema, JobStatusViewSchema, JobViewSchema, StatusAtSchema } from './schemas/job-schemas.ts';

// The query API's responses as types, derived from the zod schemas every response is parsed with
// in the tests and docs/openapi.yaml is generated from. The web console imports these (types
// only: its bundle holds no zod), so a response and the console's idea of it cannot drift.

export type Condition = z.output<typeof ConditionViewSchema>;
export type Identity = z.output<typeof ObjectIdentitySchema>;

export type FleetItem = z.output<typeof FleetItemSchema>;
export type FleetOverview = z.output<typeof FleetOverviewSchema>;
export type FleetState = FleetItem['state'];
export type Kind = FleetItem['kind'];

export type JobView = z.output<typeof JobViewSchema>;
export type JobStatus = z.output<typeof JobStatusViewSchema>;
export type JobExplanation = z.output<typeof ExplanationSchema>;
export type StatusAt = z.output<typeof StatusAtSchema>;
export type JobIndexes = z.output<typeof JobIndexesSchema>;
export type JobTimeline = z.output<typeof JobTimelineSchema>;
export type Transition = JobTimeline['transitions'][number];

/** A command of the Job view (with what the cluster reported since), or of a page of `…/commands`. */
export type JobCommand = z.output<typeof IssuedCommandSchema> | z.output<typeof PagedJobCommandSchema>;
export type JobCommandsPage = z.output<typeof JobCommandsPageSchema>;

export type JobSetView = z.output<typeof JobSetViewSchema>;
export type JobSetExplanation = z.output<typeof JobSetExplanationSchema>;
export type JobSetDecision = JobSetExplanation['events'][number];
export type JobSetCommand = z.output<typeof JobSetCommandSchema>;
export type JobSetCommandsPage = z.output<typeof JobSetCommandsPageSchema>;

export type HistoryEntry = z.output<typeof HistoryEntrySchema>;
export type HistoryPage = z.output<typeof HistoryPageSchema>;
