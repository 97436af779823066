import { afterAll, inject } from 'vitest';

// The page's NATS example reads NATS_URL, as a user's test would; here it is the run's own nats-server.
// Imported after the variable is set, so its test and its afterAll are collected as this file's.
const previous = process.env['NATS_URL'];
process.env['NATS_URL'] = inject('natsUrl');
afterAll(() => {
  if (previous === undefined) delete process.env['NATS_URL'];
  else process.env['NATS_URL'] = previous;
});
await import('./testing-page/resume-in-another-process.js');
