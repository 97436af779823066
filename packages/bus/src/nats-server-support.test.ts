import { describe, expect, it } from 'vitest';
import { BusConnectionError } from './bus-connection-error.js';
import { checkServerSupport, defaultReplicas } from './nats-server-support.js';

const refusalOf = (info: { version: string; jetstream?: boolean }) => {
  try {
    checkServerSupport(info, 'nats://nats-1:4222');
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('the nats-servers the bus runs on', () => {
  it('refuses one older than 2.9.0 with unsupported_server, naming its version', () => {
    const refused = refusalOf({ version: '2.8.4', jetstream: true });
    expect(BusConnectionError.isInstance(refused)).toBe(true);
    expect(refused).toMatchObject({ code: 'unsupported_server', message: expect.stringContaining('2.8.4') });
  });

  it("takes Debian's 2.9.10 and later ones, pre-releases included", () => {
    for (const version of ['2.9.0', '2.9.10', '2.10.22', '2.11.0-beta.1', '3.0.0']) {
      expect(refusalOf({ version, jetstream: true }), version).toBeUndefined();
    }
  });

  it('asks for 3 replicas on a cluster of three or more servers, 1 otherwise', () => {
    const three = ['a:4222', 'b:4222', 'c:4222'];
    expect(defaultReplicas({ cluster: 'prod', connect_urls: three })).toBe(3);
    expect(defaultReplicas({ cluster: 'prod', connect_urls: [...three, 'd:4222', 'e:4222'] })).toBe(3);
    expect(defaultReplicas({ cluster: 'prod', connect_urls: three.slice(0, 2) })).toBe(1);
    expect(defaultReplicas({ connect_urls: [] })).toBe(1);
    expect(defaultReplicas({})).toBe(1);
  });
});
