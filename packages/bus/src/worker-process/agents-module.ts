import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Runtime } from '@interlude/core';
import type { AgentBase } from '@interlude/core/internal';
import { SettingsError } from './environment-values.js';

/**
 * What the module given to `interlude-worker` exports as its default: a function that defines the
 * agents on the runtime the worker made (its bus from `NATS_URL`, its key from
 * `INTERLUDE_CHECKPOINT_KEY`) and returns them. A function, not a list, because an agent is bound
 * to its runtime when it is defined, and only the worker knows the runtime.
 *
 * @example
 * import type { AgentsFactory } from '@interlude/bus';
 * const agents: AgentsFactory = (runtime) => [defineAgent({ name: 'support', runtime, provider, actions })];
 * export default agents;
 */
export type AgentsFactory = (runtime: Runtime) => readonly AgentBase[] | Promise<readonly AgentBase[]>;

/** A failure of the module's own code while it loads or defines its agents: a bug to fix there. */
export class AgentsModuleError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'AgentsModuleError';
  }
}

/**
 * Imports the module and checks its default export. A module that is missing, that Node cannot
 * load (TypeScript without a loader) or that does not follow the contract is a configuration
 * problem (`SettingsError`); one that throws is the module's own (`AgentsModuleError`).
 */
export async function importAgentsFactory(modulePath: string): Promise<AgentsFactory> {
  const url = pathToFileURL(resolve(modulePath)).href;
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes(resolve(modulePath))) {
      throw new SettingsError([`module: cannot find ${modulePath} (resolved to ${resolve(modulePath)})`]);
    }
    if (code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new SettingsError([
        `module: Node cannot load ${modulePath} by itself: run TypeScript with a loader (NODE_OPTIONS='--import tsx' interlude-worker ${modulePath}) or give the compiled .js`,
      ]);
    }
    throw new AgentsModuleError(`loading ${modulePath} failed: ${(error as Error).message}`, { cause: error });
  }
  const factory = loaded['default'];
  if (typeof factory !== 'function') {
    const exported = Object.keys(loaded);
    throw new SettingsError([
      `module: ${modulePath} must export default a function (runtime) => agents, defining each agent with that runtime; it exports ${exported.length === 0 ? 'nothing' : exported.join(', ')}`,
    ]);
  }
  return factory as AgentsFactory;
}

/** Calls the factory and checks what it returned: agents, at least one, each defined on `runtime`. */
export async function defineAgents(factory: AgentsFactory, runtime: Runtime, modulePath: string): Promise<AgentBase[]> {
  let agents: unknown;
  try {
    agents = await factory(runtime);
  } catch (error) {
    throw new AgentsModuleError(`the default export of ${modulePath} failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const problems: string[] = [];
  if (!Array.isArray(agents) || agents.length === 0) {
    problems.push(`module: the default export of ${modulePath} must return a non-empty array of agents`);
  } else {
    for (const [index, agent] of agents.entries()) {
      const name = (agent as Partial<AgentBase> | null)?.name;
      if (typeof name !== 'string' || typeof (agent as Partial<AgentBase>).generation !== 'function') {
        problems.push(`module: item ${index} of what ${modulePath} returned is not an agent (defineAgent(…))`);
      } else if ((agent as AgentBase).runtime !== runtime) {
        // It would run on another bus (the embedded default, say) and its jobs would vanish there.
        problems.push(`module: agent ${name} was defined without the worker's runtime: defineAgent({ runtime, … })`);
      }
    }
  }
  if (problems.length > 0) throw new SettingsError(problems);
  return agents as AgentBase[];
}
