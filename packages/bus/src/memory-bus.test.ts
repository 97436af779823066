import { memoryBus } from './memory-bus.js';
import { describeBusConformance } from './testing/index.js';

describeBusConformance('memoryBus', { create: () => memoryBus() });
