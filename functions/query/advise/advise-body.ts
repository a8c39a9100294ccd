import * as z from 'zod';
import { SelectionFields } from '../selection-body.ts';

// The bodies of the advice's two passes (docs/advise.md): which Jobs (the selection), which part
// of the parallel scan, and where the previous call stopped; the check pass also carries the
// proposals mined from the first pass.

const ScanFields = {
  segment: z.number().int().min(0).max(63).optional().meta({ description: 'Which part of the parallel scan of every log this call reads (0-based, default 0).' }),
  segments: z.number().int().min(1).max(64).optional().meta({ description: 'How many parts the scan is read in, one call chain per part (default 1).' }),
  cursor: z.string().max(4096).optional().meta({ description: 'nextCursor of the previous call of this chain.' }),
  limit: z.number().int().min(1).max(1000).optional().meta({ description: 'Whole logs per call (default 1,000 when mining, 250 when checking).' }),
};

export const AdviseEvidenceBodySchema = z.object({ ...SelectionFields, ...ScanFields }).strict();

export const WireProposalSchema = z
  .object({
    key: z.string().min(1).max(4200).meta({ description: 'The proposal\'s key (`<family id>/<kind>`), echoed in the checks.' }),
    family: z.string().min(1).max(4160).meta({ description: 'The family id, `<namespace>/<family key>`.' }),
    patch: z.object({ spec: z.record(z.string(), z.unknown()) }).strict().meta({ description: 'A JSON merge patch of the Job (RFC 7386), spec only.' }),
  })
  .strict();

export const AdviseCheckBodySchema = z
  .object({ ...SelectionFields, ...ScanFields, proposals: z.array(WireProposalSchema).min(1).max(5000) })
  .strict();
