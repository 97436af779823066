/**
 * Another process answering a paused vault generation, for the secret canary:
 * `node --import tsx test/support/secret-option-resume-process.ts` with NATS_URL, GENERATION_ID
 * and ANSWERS (JSON) in env. It never saw the generation's secret. Prints `refused <code>` or
 * `resumed <status>`, then exits.
 */
import { natsBus } from '@interlude/bus';
import { createRuntime, ResumeError } from '@interlude/core';
import { anthropic } from '@interlude/providers/anthropic';
import { defineVaultAgent, VAULT_MODEL } from './secret-canary-agent.js';
import { requiredSetting } from './worker-process.js';

const runtime = createRuntime({
  bus: natsBus({ servers: requiredSetting('NATS_URL'), name: `answer-${process.pid}` }),
});
// Nothing may reach a model before the refusal: this adapter points where no server listens.
defineVaultAgent({
  runtime,
  provider: anthropic({ model: VAULT_MODEL, baseURL: 'http://127.0.0.1:9', apiKey: 'none', maxRetries: 0 }),
});
try {
  const response = await runtime.answer(requiredSetting('GENERATION_ID'), JSON.parse(requiredSetting('ANSWERS')));
  console.log(`resumed ${response.status}`);
} catch (error) {
  console.log(ResumeError.isInstance(error) ? `refused ${error.code}` : `failed ${String(error)}`);
} finally {
  await runtime.close();
}
