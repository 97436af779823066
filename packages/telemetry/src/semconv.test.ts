import * as upstream from '@opentelemetry/semantic-conventions/incubating';
import { expect, it } from 'vitest';
import * as semconv from './semconv.js';

it('spells every gen_ai.* and error/exception name as the OpenTelemetry conventions package does', () => {
  const ours = Object.entries(semconv).filter(
    ([name]) => (name.startsWith('ATTR_') || name.startsWith('METRIC_')) && !name.includes('INTERLUDE'),
  );
  const notUpstream = ['ATTR_AGENT_AWAITING_INPUT', 'ATTR_AGENT_INPUT_EXPIRES_AT'];
  for (const [name, value] of ours) {
    if (notUpstream.includes(name)) continue;
    expect({ name, value }).toEqual({ name, value: (upstream as Record<string, unknown>)[name] });
  }
  expect(semconv.EVENT_EXCEPTION).toBe(upstream.EVENT_EXCEPTION);
  expect(semconv.GEN_AI_OPERATION_CHAT).toBe(upstream.GEN_AI_OPERATION_NAME_VALUE_CHAT);
  expect(semconv.GEN_AI_OPERATION_INVOKE_AGENT).toBe(upstream.GEN_AI_OPERATION_NAME_VALUE_INVOKE_AGENT);
  expect(semconv.GEN_AI_OPERATION_EXECUTE_TOOL).toBe(upstream.GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL);
});
