import { describeCrashPoints } from '../../integration/service/crash-points.suite.ts';
import { inMemoryServiceStore } from '../../integration/service/service-store.ts';

describeCrashPoints('in-memory', inMemoryServiceStore);
