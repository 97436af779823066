import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { natsRoles } from './nats-roles.js';
import { natsNames } from './subjects.js';

const shipped = readFileSync(new URL('../nats/interlude-roles.conf', import.meta.url), 'utf8');
/** The grants of a roles file: its quoted subjects, without comments. */
const grants = (text: string) =>
  text
    .split('\n')
    .filter((line) => !line.trim().startsWith('#'))
    .flatMap((line) => [...line.matchAll(/"([^"]+)"/g)].map((match) => match[1] as string));

describe('natsRoles(prefix): the roles file of a prefixed deployment', () => {
  it('is the shipped file without a prefix', () => {
    expect(natsRoles()).toBe(shipped);
  });

  it('grants the same subjects under the prefix’s names, and no name of the default deployment', () => {
    const names = natsNames('acme');
    const prefixed = grants(natsRoles('acme'));
    // One grant for each of the shipped file's, in order: only the names moved.
    expect(prefixed).toHaveLength(grants(shipped).length);
    const shared = new Set(['$JS.API.INFO', '_INBOX.>', '>']);
    for (const grant of prefixed) {
      if (shared.has(grant)) continue;
      const defaults = grant.replace(/acme(\.interlude\.|_INTERLUDE_|_interlude_)/g, '');
      expect(defaults, grant).not.toBe(grant);
      expect(defaults, grant).not.toMatch(/interlude\.|INTERLUDE_|interlude_/);
    }
    for (const stream of names.allStreams) expect(prefixed.some((grant) => grant.includes(`.${stream}`))).toBe(true);
    expect(prefixed).toContain(`${names.eventsSubjectRoot}.>`);
    expect(prefixed).toContain(`$KV.${names.checkpointBucket}.>`);
  });

  it('names its users, roles and password variables after the prefix, so two deployments’ roles sit in one server', () => {
    const text = natsRoles('acme-prod');
    expect(text).toContain(
      '{ user: acme-prod-interlude-worker, password: $ACME_PROD_INTERLUDE_WORKER_PASSWORD, permissions: $ACME_PROD_INTERLUDE_WORKER }',
    );
    expect(text).toContain('ACME_PROD_INTERLUDE_OBSERVER = {');
    expect(text).not.toMatch(/user: interlude-|\$INTERLUDE_/);
  });

  it('refuses a prefix that is not one (invalid_prefix)', () => {
    expect(() => natsRoles('acme.prod')).toThrow(expect.objectContaining({ code: 'invalid_prefix' }));
  });
});
