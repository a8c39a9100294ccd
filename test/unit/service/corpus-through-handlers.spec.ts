import { describeCorpusThroughHandlers } from '../../integration/service/corpus-through-handlers.suite.ts';
import { inMemoryServiceStore } from '../../integration/service/service-store.ts';

describeCorpusThroughHandlers('in-memory', inMemoryServiceStore);
