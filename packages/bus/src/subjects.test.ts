import { describe, expect, it } from 'vitest';
import { natsNames } from './subjects.js';
import { sampleEvent } from './testing/fixtures.js';

const { eventSubject, filterSubjects, generationSubject, jobConsumerName, jobSubject } = natsNames();

describe('subjects', () => {
  it('puts agent, action, generation and event in their documented places', () => {
    expect(eventSubject(sampleEvent('gen_1', 0, 'input_requested'))).toBe(
      'interlude.gen.support.handle.gen_1.input_requested',
    );
    expect(generationSubject('gen_1')).toBe('interlude.gen.*.*.gen_1.*');
  });

  it('turns a filter into one subject per event, with wildcards for what it leaves open', () => {
    expect(filterSubjects({})).toEqual(['interlude.gen.*.*.*.*']);
    expect(filterSubjects({ event: 'input_requested' })).toEqual(['interlude.gen.*.*.*.input_requested']);
    expect(filterSubjects({ agent: 'support', event: ['started', 'completed', 'started'] })).toEqual([
      'interlude.gen.support.*.*.started',
      'interlude.gen.support.*.*.completed',
    ]);
    expect(filterSubjects({ action: 'handle', generationId: 'gen_2' })).toEqual(['interlude.gen.*.handle.gen_2.*']);
  });

  it('refuses names that would change a subject: dots, wildcards, spaces, empty', () => {
    for (const agent of ['a.b', '*', '>', 'two words', '']) {
      expect(() => eventSubject(sampleEvent('gen_1', 0, 'started', { agent }))).toThrow(TypeError);
    }
    expect(() => filterSubjects({ generationId: 'x.>' })).toThrow(TypeError);
    expect(() => jobSubject('a.b')).toThrow(TypeError);
  });

  it('names one job subject and one durable consumer per queue', () => {
    expect(jobSubject('agents')).toBe('interlude.jobs.agents');
    expect(jobConsumerName('agents')).toBe('interlude_jobs_agents');
  });

  it('puts every name of a prefixed bus under its prefix', () => {
    const acme = natsNames('acme');
    expect(acme.eventSubject(sampleEvent('gen_1', 0, 'completed'))).toBe(
      'acme.interlude.gen.support.handle.gen_1.completed',
    );
    expect(acme.jobSubject('agents')).toBe('acme.interlude.jobs.agents');
    expect(acme.jobConsumerName('agents')).toBe('acme_interlude_jobs_agents');
    expect(acme.timerConsumerName('support')).toBe('acme_interlude_timers_support');
    expect(acme.claimSubject('gen_1', 2)).toBe('acme.interlude.claims.gen_1.2');
    expect(acme.checkpointKeySubject('gen_1')).toBe('$KV.acme_interlude_checkpoints.gen_1');
    expect(acme.allStreams).toEqual([
      'acme_INTERLUDE_EVENTS',
      'acme_INTERLUDE_JOBS',
      'acme_INTERLUDE_CLAIMS',
      'acme_INTERLUDE_DEAD',
      'KV_acme_interlude_checkpoints',
      'acme_INTERLUDE_TIMERS',
      'KV_acme_interlude_pending',
    ]);
  });

  it('refuses a prefix that is no name: dots, wildcards, spaces, empty, too long', () => {
    for (const prefix of ['a.b', '*', '>', 'two words', '', '_lead', 'x'.repeat(33)]) {
      expect(() => natsNames(prefix)).toThrow(/prefix must be 1 to 32 letters/);
      expect(() => natsNames(prefix)).toThrow(expect.objectContaining({ code: 'invalid_prefix' }));
    }
  });
});
