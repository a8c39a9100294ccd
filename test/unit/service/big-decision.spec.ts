import { describeBigDecision } from '../../integration/service/big-decision.suite.ts';
import { inMemoryServiceStore } from '../../integration/service/service-store.ts';
import { PROGRESS_EVERY } from '../../../shared/publish/publish.ts';

// At real page and step sizes: 20,000 pods with 200-character names are ~50 pages of 128 KB in
// three commit steps — far over twice the old 640-event outbox cap, over twice a step's bytes,
// and many times PROGRESS_EVERY events per outbox item.
describeBigDecision('in-memory', inMemoryServiceStore, { pods: 20_000, nameLength: 200, crashPods: 0, timeout: 120_000 });
// Small pages and steps: many steps and checkpoints for the crash tests.
describeBigDecision('in-memory, small pages', inMemoryServiceStore, { pods: 4 * PROGRESS_EVERY, limits: { pageBytes: 4096, stepBytes: 16_384 } });
