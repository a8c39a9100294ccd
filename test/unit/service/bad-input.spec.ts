import { describeBadInput } from '../../integration/service/bad-input.suite.ts';
import { inMemoryServiceStore } from '../../integration/service/service-store.ts';

describeBadInput('in-memory', inMemoryServiceStore);
