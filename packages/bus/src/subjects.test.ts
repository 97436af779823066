import { describe, expect, it } from 'vitest';
import { eventSubject, filterSubjects, generationSubject, jobConsumerName, jobSubject } from './subjects.js';
import { sampleEvent } from './testing/fixtures.js';

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
});
