import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineAgent } from '../agent/define-agent.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import { signCheckpoint } from '../checkpoint/sign-checkpoint.js';
import { ResumeError, type ResumeErrorCode } from '../errors/resume-error.js';
import { InputRequest } from '../input-request/input-request.js';
import { nestsDeeperThan } from '../json/nesting-depth.js';
import { scriptedAgent, throughJson } from '../test-support/harness.js';
import { createRefundScenario } from '../testing/refund-fixture.js';
import { scriptedProvider } from '../testing/scripted-provider.js';
import { tool } from '../tool/tool.js';

const KEY = 'test-checkpoint-key-0123456789';

/** A paused refund (signed), plus a choice and a schema question in the same turn. */
async function pausedWithEveryKind() {
  const scenario = createRefundScenario();
  const pickTeam = tool({
    name: 'pick_team',
    description: 'Route the ticket',
    input: z.object({}),
    run: (_, ctx) =>
      ctx.answer === undefined
        ? InputRequest.choice('Which team?', { options: ['billing', { value: 'tech', label: 'Tech' }] })
        : ctx.answer,
  });
  const askAge = tool({
    name: 'ask_age',
    description: 'Ask an age',
    input: z.object({}),
    run: (_, ctx) =>
      ctx.answer === undefined ? InputRequest.text('How old?', { schema: z.number().int().min(0) }) : ctx.answer,
  });
  const action = (params: { ticketId: number }) => ({
    ...scenario.action(params),
    tools: [scenario.lookupOrder, scenario.issueRefund, pickTeam, askAge],
  });
  const firstTurn = {
    toolCalls: [
      { id: 'call_lookup', name: 'lookup_order', arguments: { order_id: 42 } },
      { id: 'call_refund', name: 'issue_refund', arguments: { order_id: 42, amount: 30 } },
      { id: 'call_team', name: 'pick_team', arguments: {} },
      { id: 'call_age', name: 'ask_age', arguments: {} },
    ],
  };
  const harness = scriptedAgent(action, [firstTurn, { text: 'done' }], { checkpointKey: KEY });
  const paused = await harness.agent.handle({ ticketId: 42 }).generateNow();
  const checkpoint = throughJson(paused.checkpoint) as Checkpoint;
  return { ...harness, scenario, checkpoint, action };
}

const goodAnswers = { call_refund: true, call_team: 'billing', call_age: 30 };

async function expectRefused(
  run: () => Promise<unknown>,
  code: ResumeErrorCode,
  counters: { runs: Record<string, number>; requests: () => number },
  mentions?: string,
) {
  const before = { runs: { ...counters.runs }, requests: counters.requests() };
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(ResumeError.isInstance(error), `expected ResumeError ${code}, got ${String(error)}`).toBe(true);
  expect((error as ResumeError).code).toBe(code);
  if (mentions !== undefined) expect((error as ResumeError).message).toContain(mentions);
  expect(counters.runs).toEqual(before.runs);
  expect(counters.requests()).toBe(before.requests);
}

describe('resume refusals: each raises ResumeError before any tool runs or request is sent', () => {
  const cases: Array<
    [
      string,
      ResumeErrorCode,
      (checkpoint: Checkpoint) => { checkpoint: unknown; answers: Record<string, unknown> },
      string?,
    ]
  > = [
    [
      'an unsupported version',
      'unsupported_version',
      (c) => ({ checkpoint: { ...c, version: 4 }, answers: goodAnswers }),
    ],
    [
      'a checkpoint nested 100,000 deep (before anything recursive reads it)',
      'invalid_checkpoint',
      (c) => ({
        checkpoint: { ...c, messages: JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) },
        answers: goodAnswers,
      }),
      'nests deeper',
    ],
    [
      'answers nested 100,000 deep',
      'invalid_checkpoint',
      (c) => ({
        checkpoint: c,
        answers: { ...goodAnswers, call_refund: JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) },
      }),
      'nest deeper',
    ],
    ['a checkpoint that is not an object', 'invalid_checkpoint', () => ({ checkpoint: 'nope', answers: goodAnswers })],
    [
      'a turn with no tool call',
      'no_tool_call_turn',
      (c) => ({ checkpoint: { ...c, tool_call_turn_size: 0 }, answers: goodAnswers }),
    ],
    [
      'an answer for a call that is not waiting',
      'unknown_call',
      (c) => ({ checkpoint: c, answers: { ...goodAnswers, call_lookup: true } }),
      'call_lookup',
    ],
    [
      'a missing answer',
      'missing_answer',
      (c) => ({ checkpoint: c, answers: { call_refund: true, call_team: 'billing' } }),
      'call_age',
    ],
    [
      'a confirm that is not boolean',
      'invalid_confirm',
      (c) => ({ checkpoint: c, answers: { ...goodAnswers, call_refund: 'yes' } }),
      'call_refund',
    ],
    [
      'a choice not among the options',
      'invalid_choice',
      (c) => ({ checkpoint: c, answers: { ...goodAnswers, call_team: 'sales' } }),
      'call_team',
    ],
    [
      'an answer that fails its schema',
      'schema_mismatch',
      (c) => ({ checkpoint: c, answers: { ...goodAnswers, call_age: -3 } }),
      'call_age',
    ],
    [
      'a checkpoint of another action',
      'action_mismatch',
      (c) => ({ checkpoint: { ...c, action_name: 'other' }, answers: goodAnswers }),
    ],
    [
      'a checkpoint of another provider',
      'provider_mismatch',
      (c) => ({ checkpoint: { ...c, provider: 'openai.chat' }, answers: goodAnswers }),
    ],
    [
      'a checkpoint of another model',
      'model_mismatch',
      (c) => ({ checkpoint: { ...c, model: 'other-model' }, answers: goodAnswers }),
    ],
    [
      'a turn whose calls do not match results and requests',
      'turn_mismatch',
      (c) => ({ checkpoint: { ...c, completed_results: {} }, answers: goodAnswers }),
      'call_lookup',
    ],
    [
      'a bad signature',
      'bad_signature',
      (c) => ({ checkpoint: { ...c, signature: '00'.repeat(32) }, answers: goodAnswers }),
    ],
    [
      'a good signature with characters after it',
      'bad_signature',
      (c) => ({ checkpoint: { ...c, signature: `${c.signature}x` }, answers: goodAnswers }),
    ],
    [
      'a choice request whose options are not a list',
      'invalid_checkpoint',
      (c) => ({
        checkpoint: {
          ...c,
          input_requests: c.input_requests.map((r) => (r.kind === 'choice' ? { ...r, options: 'x' } : r)),
        },
        answers: goodAnswers,
      }),
    ],
    [
      'an answer schema that is not a JSON Schema',
      'invalid_checkpoint',
      (c) => ({
        checkpoint: {
          ...c,
          input_requests: c.input_requests.map((r) => (r.schema ? { ...r, schema: { type: 'foo' } } : r)),
        },
        answers: goodAnswers,
      }),
      'call_age',
    ],
    [
      'an unsigned checkpoint where a key is set',
      'bad_signature',
      (c) => ({ checkpoint: { ...c, signature: undefined }, answers: goodAnswers }),
    ],
  ];

  for (const [name, code, mutate, mentions] of cases) {
    it(`refuses ${name} with ${code}`, async () => {
      const { agent, provider, scenario, checkpoint } = await pausedWithEveryKind();
      const input = mutate(checkpoint);
      // Re-sign what the case altered, so the check under test is the one that fires, not the signature.
      // (A checkpoint too deep to serialise cannot be signed: it is refused before its signature is read.)
      if (code !== 'bad_signature' && typeof input.checkpoint === 'object' && !nestsDeeperThan(input.checkpoint)) {
        input.checkpoint = signCheckpoint(input.checkpoint as Checkpoint, { keys: KEY, params: { ticketId: 42 } });
      }
      await expectRefused(
        () => agent.handle({ ticketId: 42 }).resumeNow(input),
        code,
        { runs: scenario.runs, requests: () => provider.requests.length },
        mentions,
      );
      // The stored checkpoint was not consumed: the right answers still resume it.
      const done = await agent.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: goodAnswers });
      expect(done.status).toBe('completed');
    });
  }

  it('refuses a signed checkpoint altered in any field, even when the alteration would otherwise be valid', async () => {
    const { agent, provider, scenario, checkpoint } = await pausedWithEveryKind();
    const altered = { ...checkpoint, tool_turns: 5 };
    await expectRefused(
      () => agent.handle({ ticketId: 42 }).resumeNow({ checkpoint: altered, answers: goodAnswers }),
      'bad_signature',
      {
        runs: scenario.runs,
        requests: () => provider.requests.length,
      },
    );
  });

  it('refuses a checkpoint taken by another agent', async () => {
    const { scenario, checkpoint, action, runtime } = await pausedWithEveryKind();
    const provider = scriptedProvider([]);
    const other = defineAgent({ name: 'other', runtime, provider, actions: { handle: action } });
    await expectRefused(
      () => other.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: goodAnswers }),
      'agent_mismatch',
      {
        runs: scenario.runs,
        requests: () => provider.requests.length,
      },
    );
  });

  it('refuses a checkpoint already resumed', async () => {
    const { agent, provider, scenario, checkpoint } = await pausedWithEveryKind();
    await agent.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: goodAnswers });
    await expectRefused(
      () => agent.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: goodAnswers }),
      'already_resumed',
      {
        runs: scenario.runs,
        requests: () => provider.requests.length,
      },
    );
  });

  it('lets exactly one of two concurrent resumes of one checkpoint through', async () => {
    const { agent, scenario, checkpoint } = await pausedWithEveryKind();
    const results = await Promise.allSettled([
      agent.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: goodAnswers }),
      agent.handle({ ticketId: 42 }).resumeNow({ checkpoint, answers: goodAnswers }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((result) => result.status === 'rejected');
    expect((rejected as PromiseRejectedResult).reason.code).toBe('already_resumed');
    expect(scenario.runs.issue_refund).toBe(1);
  });
});
