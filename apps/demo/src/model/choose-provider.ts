import type { ProviderAdapter } from '@interlude/core';
import { anthropic } from '@interlude/providers/anthropic';
import { openaiChat } from '@interlude/providers/openai-chat';
import type { DemoConfig } from '../config/read-demo-config.js';
import { startScriptedModelServer } from './scripted-model-server.js';

/** The provider every agent of the desk uses, and what to say about it on start. */
export interface ChosenProvider {
  provider: ProviderAdapter;
  description: string;
  close(): Promise<void>;
}

/**
 * A real model when a key is set, else the local scripted model server, reached through the
 * real Anthropic adapter (so the demo exercises the same SDK path as production).
 */
export async function chooseProvider(model: DemoConfig['model']): Promise<ChosenProvider> {
  if (model.kind === 'anthropic') {
    return {
      provider: anthropic({ model: model.model, apiKey: model.apiKey }),
      description: `Anthropic ${model.model} (ANTHROPIC_API_KEY)`,
      close: async () => undefined,
    };
  }
  if (model.kind === 'openai') {
    return {
      provider: openaiChat({ model: model.model, apiKey: model.apiKey }),
      description: `OpenAI ${model.model} (OPENAI_API_KEY)`,
      close: async () => undefined,
    };
  }
  const server = await startScriptedModelServer();
  return {
    provider: anthropic({ model: 'interlude-scripted', apiKey: 'demo', baseURL: server.url, maxRetries: 0 }),
    description: `scripted model on ${server.url} (Anthropic wire format; set ANTHROPIC_API_KEY or OPENAI_API_KEY for a real one)`,
    close: () => server.close(),
  };
}
