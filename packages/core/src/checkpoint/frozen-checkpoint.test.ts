import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ResumeError } from '../errors/resume-error.js';
import { scriptedAgent } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import type { Checkpoint } from './checkpoint.js';
import { CHECKPOINT_KEYS } from './checkpoint.js';

/** Checkpoints written by released versions: read only, never regenerated. */
const corpus = ['v1-refund.json', 'v2-refund.json'];

describe('the frozen checkpoint corpus', () => {
  for (const name of corpus) {
    it(`${name} still resumes`, async () => {
      const checkpoint = JSON.parse(
        await readFile(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'),
      ) as Checkpoint;
      expect(Object.keys(checkpoint)).toEqual(CHECKPOINT_KEYS.filter((key) => key in checkpoint));
      const scenario = createRefundScenario();
      const { agent, provider } = scriptedAgent(scenario.action, [scenario.replies[1] as never]);
      const done = await agent.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: { call_refund: true } });
      expect(done.text).toBe('I refunded $30 on order 42.');
      expect(done.generationId).toBe(checkpoint.generation_id);
      expect(scenario.runs).toEqual({ lookup_order: 0, issue_refund: 1 });
      expect(provider.requests).toHaveLength(1);
      // Resumed once, refused for good after (version 1 by its digest, version 2 by its claim slot).
      const again = await agent
        .handle({ ticketId: 42 })
        .resumeNow({ checkpoint, answers: { call_refund: true } })
        .catch((error: unknown) => error);
      expect(ResumeError.isInstance(again) && again.code).toBe('already_resumed');
      expect(scenario.runs.issue_refund).toBe(1);
    });
  }
});
