import {
  type ContextBinding,
  defineAgent,
  InputRequest,
  type JsonValue,
  type ProviderAdapter,
  type Runtime,
  tool,
} from '@interlude/core';
import { secretInEveryForm } from '@interlude/core/testing';
import type { WireReply } from '@interlude/providers/testing';
import { z } from 'zod';

/** The model name the wire server answers for and every process of the scenario uses. */
export const VAULT_MODEL = 'claude-sonnet-5-5';

/** What the tools were really given, so a test can tell the secret reached them and nothing else. */
export interface VaultWitness {
  token?: string | undefined;
  key?: string | undefined;
  pickedAccount?: unknown;
}

/**
 * A device-enrolment agent whose tools do everything careless tools do with a secret: return it
 * in every form (`secretInEveryForm`), keys of an object answer included, throw it with a cause,
 * ask a follow-up question built from it (prompt, option labels and values, schema, metadata),
 * and ask to confirm with it in the prompt. The secret answer is `{ token, <key>: label }`: the
 * schema declares `token`, the other key is the person's.
 */
export function defineVaultAgent(options: {
  runtime: Runtime;
  provider: ProviderAdapter;
  context?: ContextBinding;
  witness?: VaultWitness;
}) {
  const witness = options.witness ?? {};
  const held = () => ({ token: witness.token ?? '', key: witness.key ?? '' });
  const enrollDevice = tool({
    name: 'enroll_device',
    description: 'Enroll a device with a token',
    input: z.object({ device: z.number() }),
    run: ({ device }, ctx) => {
      if (ctx.answer === undefined) {
        return InputRequest.secret(`Token for device ${device}?`, {
          schema: {
            type: 'object',
            properties: { token: { type: 'string' } },
            additionalProperties: { type: 'string' },
          },
        });
      }
      const answer = ctx.answer as Record<string, string>;
      witness.token = answer['token'];
      witness.key = Object.keys(answer).find((name) => name !== 'token');
      const { token, key } = held();
      return { device, answer, token_forms: secretInEveryForm(token), key_forms: secretInEveryForm(key) };
    },
  });
  const verifyDevice = tool({
    name: 'verify_device',
    description: 'Verify the enrolled device',
    input: z.object({}),
    run: () => {
      const { token, key } = held();
      throw new AggregateError(
        [
          new Error(`verification refused ${JSON.stringify(inText(token))}`, {
            cause: new Error(`upstream saw key ${JSON.stringify(inText(key))}`),
          }),
          errorShapesHolding(token),
        ],
        'verification failed',
      );
    },
  });
  const chooseAccount = tool({
    name: 'choose_account',
    description: 'Pick the account to deploy as',
    input: z.object({}),
    run: (_input, ctx) => {
      if (ctx.answer !== undefined) {
        witness.pickedAccount = ctx.answer;
        return { account: 'chosen' };
      }
      const { token, key } = held();
      const forms = secretInEveryForm(token);
      return InputRequest.choice(`Deploy with ${String(forms['basic_auth'])} or as ${key}?`, {
        options: [
          { value: token, label: `the token's account (${String(forms['url_query'])})` },
          { value: { key, hex: String(forms['hex']) }, label: String(forms['json']) },
          'the bot',
        ],
        schema: { description: String(forms['json_twice']), examples: [forms['base64'], key] },
        metadata: JSON.parse(JSON.stringify(forms)) as Record<string, JsonValue>,
      });
    },
  });
  const confirmDeploy = tool({
    name: 'confirm_deploy',
    description: 'Ask a person to confirm the deploy',
    input: z.object({}),
    run: (_input, ctx) => {
      if (ctx.answer === undefined) {
        // It expires (in an hour, long after the scenario): its pause sets a timer and lists a deadline.
        return InputRequest.confirm(`Deploy with ${String(secretInEveryForm(held().token)['nfd'])}?`, {
          expiresIn: 3_600_000,
        });
      }
      return { deployed: ctx.answer === true };
    },
  });
  return defineAgent({
    name: 'vault',
    runtime: options.runtime,
    provider: options.provider,
    ...(options.context && { context: options.context }),
    instructions: 'You enroll devices and deploy with their tokens.',
    actions: {
      enroll: ({ device }: { device: number }) => ({
        message: `Enroll device ${device}, then deploy`,
        tools: [enrollDevice, verifyDevice, chooseAccount, confirmDeploy],
      }),
    },
  });
}

/**
 * An error that holds the secret where instrumented clients put things: a symbol-keyed and a
 * non-enumerable field, a `Map` of headers, and a cause 7 levels down.
 */
function errorShapesHolding(secret: string): Error {
  let deepest = new Error(`deepest cause: ${secret}`);
  for (let level = 7; level > 0; level -= 1) deepest = new Error(`level ${level}`, { cause: deepest });
  const error = Object.assign(new Error('request failed', { cause: deepest }), {
    [Symbol('request')]: { token: secret },
    headers: new Map([
      ['x-request-id', 'r-1'],
      ['authorization', `Bearer ${secret}`],
    ]),
  });
  return Object.defineProperty(error, 'config', { value: { auth: secret }, enumerable: false });
}

/**
 * Every form but the split ones: written into one text, the halves are no longer strings side by
 * side but pieces of text apart, which scrubbing does not recognise as the secret (see the core
 * README's list of what is not found).
 */
function inText(secret: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(secretInEveryForm(secret)).filter(([name]) => !name.startsWith('split_')));
}

/** One Messages API response calling tools, as the wire server sends it. */
export function toolTurn(...calls: Array<{ id: string; name: string; input?: Record<string, unknown> }>): WireReply {
  return message(
    calls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.input ?? {} })),
    'tool_use',
  );
}

/** One Messages API response with a final text. */
export function textTurn(text: string): WireReply {
  return message([{ type: 'text', text }], 'end_turn');
}

function message(content: unknown[], stopReason: string): WireReply {
  return {
    json: {
      id: `msg_${stopReason}_${content.length}`,
      type: 'message',
      role: 'assistant',
      model: VAULT_MODEL,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  };
}
