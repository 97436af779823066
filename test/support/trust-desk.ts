import { type ActionFunction, type Agent, defineAgent, InputRequest, type Runtime, tool } from '@interlude/core';
import { type RecordedModelRequest, type ScriptedReply, scriptedProvider } from '@interlude/core/testing';
import { z } from 'zod';

/** A refund that really happened: to which account, how much, in which generation. */
export interface Refund {
  account: string;
  amount: number;
  generationId: string;
}

/**
 * The trust suite's desk: `refund({ account })` asks to confirm "Refund $30 to <account>?" and, once
 * a person said yes, records the refund. The account comes from the action's params, as on a real
 * desk, so a resume with other params would pay someone else. The model answers from the
 * conversation, so any runtime (app, worker, another deployment) can run any step.
 */
export function defineTrustDesk(
  runtime: Runtime,
  refunds: Refund[],
  /** Runs inside the answered body, before the refund is recorded: what a test looks at while it runs. */
  whileRefunding?: () => Promise<void>,
): Agent<{ refund: ActionFunction }> {
  const respond = (request: RecordedModelRequest): ScriptedReply =>
    JSON.stringify(request.messages).includes('"tool_use_id":"call_refund"')
      ? { text: 'Refunded.' }
      : { toolCalls: [{ id: 'call_refund', name: 'issue_refund', arguments: { amount: 30 } }] };
  return defineAgent({
    name: 'desk',
    runtime,
    provider: scriptedProvider(Array.from({ length: 1_000 }, () => respond)),
    actions: {
      refund: ({ account }: { account: string }) => ({
        message: `Refund the customer ${account}`,
        tools: [
          tool({
            name: 'issue_refund',
            description: 'Refund the account',
            input: z.object({ amount: z.number() }),
            async run({ amount }, ctx) {
              if (ctx.answer === undefined) return InputRequest.confirm(`Refund $${amount} to ${account}?`);
              await whileRefunding?.();
              refunds.push({ account, amount, generationId: ctx.generationId });
              return { refunded: amount };
            },
          }),
        ],
      }),
    },
  });
}
