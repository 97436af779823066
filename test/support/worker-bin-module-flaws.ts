/**
 * A module of agents for `interlude-worker` with the flaw MODULE_FLAW names, to see the bin refuse
 * it: `empty` returns no agents, `own-runtime` defines its agent without the worker's runtime,
 * `throws` fails while defining them. Unset, it is a valid module with one scripted agent.
 */
import type { AgentsFactory } from '@interlude/bus';
import { defineAgent } from '@interlude/core';
import { scriptedProvider } from '@interlude/core/testing';

const agents: AgentsFactory = (runtime) => {
  // Read when the worker defines its agents, so a test in one process can try each flaw in turn.
  const flaw = process.env['MODULE_FLAW'];
  if (flaw === 'throws') throw new Error('the model registry is unreachable');
  if (flaw === 'empty') return [];
  return [
    defineAgent({
      name: 'echo',
      ...(flaw !== 'own-runtime' && { runtime }),
      provider: scriptedProvider(),
      actions: { say: ({ text }: { text: string }) => ({ message: text, tools: [] }) },
    }),
  ];
};
export default agents;
