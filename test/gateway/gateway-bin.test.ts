import { expect, it } from 'vitest';
import { startGatewayBin } from '../support/gateway-bin-process.js';

it('interlude-gateway refuses a bad configuration with exit 2, naming every problem and no secret', async () => {
  const gateway = startGatewayBin('support/gateway-desk-agents.ts', {
    NATS_URL: 'http://127.0.0.1:4222',
    INTERLUDE_GATEWAY_KEYS: 'desk:read+write:too-short-secret,ops:*:a-long-enough-secret-0123',
    INTERLUDE_GATEWAY_PORT: '99999',
    INTERLUDE_GATEWAY_CORS_ORIGINS: 'desk.example',
  });
  expect(await gateway.exited).toBe(2);
  const said = gateway.errors();
  expect(said).toContain('NATS_URL: "http://127.0.0.1:4222" must start with nats:// or tls://');
  expect(said).toContain('INTERLUDE_GATEWAY_KEYS: entry 1 (desk): scopes are read, answer, cancel joined by + (or *)');
  expect(said).toContain('INTERLUDE_GATEWAY_PORT: must be a whole number from 0 to 65535');
  expect(said).toContain('INTERLUDE_GATEWAY_CORS_ORIGINS: "desk.example" is not an origin');
  expect(said).toContain('Run interlude-gateway --help for every setting.');
  expect(said).not.toContain('too-short-secret');
  expect(said).not.toContain('a-long-enough-secret-0123');
});
