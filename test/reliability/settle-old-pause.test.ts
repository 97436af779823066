import { natsBus } from '@interlude/bus';
import { uniqueId } from '@interlude/bus/testing';
import { createRuntime } from '@interlude/core';
import { describe, expect, it } from 'vitest';
import { startScript } from '../support/bus-child-process.js';
import { defineRefundAgent, readSideEffects } from '../support/bus-refund-agent.js';
import { usePrivateNatsServer } from '../support/private-nats-fixture.js';

const nats = usePrivateNatsServer('interlude-settle-');
const { children, runtimes } = nats;

describe('a worker killed between listing its pause and announcing it', () => {
  it('the pause is answered by id meanwhile; the job’s next delivery does not announce the old pause after what followed', async () => {
    const trial = uniqueId('settle');
    const sideEffectsFile = `${nats.directory}/${trial}-effects.jsonl`;
    const name = uniqueId('settling');
    const queue = uniqueId('queue');
    const runtime = createRuntime({ bus: natsBus({ servers: nats.server.url, name: 'settle-test' }) });
    runtimes.push(runtime);
    const agent = defineRefundAgent(runtime, { sideEffectsFile, name });
    const env = {
      NATS_URL: nats.server.url,
      QUEUE: queue,
      AGENT_NAME: name,
      SIDE_EFFECTS_FILE: sideEffectsFile,
      JOB_ACK_WAIT_MS: '1000',
      HANG_BEFORE_ANNOUNCE_FILE: `${nats.directory}/${trial}-hang`,
    };
    const start = () => {
      const child = startScript('bus-worker-process.ts', env);
      children.push(child);
      return child;
    };
    const first = start();
    await first.waitForLine(/^ready$/);
    const { generationId } = await agent.generation('handle', { ticketId: 42 }).generateLater({ queue });
    // Stored and listed, not announced: the worker dies there.
    await first.waitForLine(new RegExp(`^hanging ${generationId}$`), 60_000);
    await first.stop('SIGKILL');
    expect((await runtime.pending({ agent: name })).map((entry) => entry.generationId)).toEqual([generationId]);

    // The person answers it from the list; the generation runs to its end here.
    const answered = await runtime.answer(generationId, { call_refund: true });
    expect(answered.status).toBe('completed');

    // The job comes back to the next worker, which finds the run stopped at its pause and settles it.
    const second = start();
    await second.waitForLine(new RegExp(`^job duplicate ${generationId}$`), 60_000);
    const events = await runtime.bus.events(generationId, { everyEpoch: true });
    expect(events.filter((event) => event.event === 'input_requested')).toEqual([]);
    expect(events.at(-1)?.event).toBe('completed');
    expect(await runtime.pending({ agent: name })).toEqual([]);
    const refunds = (await readSideEffects(sideEffectsFile)).filter((effect) => effect.tool === 'issue_refund');
    expect(refunds).toHaveLength(1);
  }, 180_000);
});
