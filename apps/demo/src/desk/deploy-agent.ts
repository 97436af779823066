import {
  type ContextBinding,
  defineAgent,
  InputRequest,
  type ProviderAdapter,
  type Runtime,
  tool,
} from '@interlude/core';
import { secretInEveryForm } from '@interlude/core/testing';
import { z } from 'zod';
import { findTicket, ticketMessage } from './tickets.js';

/** Releases that went out, newest last. */
export const deploysDone: Array<{ service: string; version: string; environment: string }> = [];

/**
 * Sits behind an approval gate (the action's `requiresApproval`), then asks for a deploy token
 * as a secret. The result repeats the token on purpose, as written and in every form a careless
 * tool writes it (base64 in a Basic header, URL-encoded in a query, JSON-escaped, hex, bytes, upper
 * case, NFD, split over two fields: `secretInEveryForm`): core replaces each with `[FILTERED]`
 * before the model, the bus, the spans or the page can see it, which the demo shows.
 */
const deployRelease = tool({
  name: 'deploy_release',
  description: 'Deploy a released version of a service to an environment',
  input: z.object({ service: z.string(), version: z.string(), environment: z.string() }),
  async run({ service, version, environment }, ctx) {
    if (ctx.answer === undefined) return InputRequest.secret(`Deploy token for ${service} in ${environment}`);
    const token = String(ctx.answer);
    if (token.length < 6) throw new Error(`The deploy token ${token} was refused: too short`);
    deploysDone.push({ service, version, environment });
    return {
      deployed: `${service}@${version}`,
      environment,
      authorized_with: token,
      careless_copies: secretInEveryForm(token),
    };
  },
});

/**
 * The deploy story: `deploy_release` waits for a person's approval before it may run at all,
 * then asks for a secret token. A secret answer cannot travel in a job, so it resumes in-process.
 */
export function createDeployAgent(options: { runtime: Runtime; provider: ProviderAdapter; context: ContextBinding }) {
  return defineAgent({
    name: 'ops',
    runtime: options.runtime,
    provider: options.provider,
    context: options.context,
    instructions: 'You ship releases. Deploy what the ticket asks for with deploy_release.',
    actions: {
      deploy: ({ ticketId }: { ticketId: number }) => ({
        message: ticketMessage(findTicket(ticketId)),
        tools: [deployRelease],
        requiresApproval: ['deploy_release'],
      }),
    },
  });
}
