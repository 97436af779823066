import { inject } from 'vitest';
import { natsBus } from './nats-bus.js';
import { describeBusConformance } from './testing/index.js';

describeBusConformance('natsBus', {
  create: () => natsBus({ servers: inject('natsUrl'), name: 'conformance' }),
});
