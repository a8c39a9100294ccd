import { describeConcurrentReconcilers } from '../../integration/service/concurrent-reconcilers.suite.ts';
import { inMemoryServiceStore } from '../../integration/service/service-store.ts';

describeConcurrentReconcilers('in-memory', inMemoryServiceStore);
