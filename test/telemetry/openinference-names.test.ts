import * as upstream from '@arizeai/openinference-semantic-conventions';
import { openinference } from '@interlude/telemetry';
import { expect, it } from 'vitest';

/** Ours that OpenInference's package names differently. */
const renamed: Record<string, unknown> = {
  OI_SPAN_KIND: upstream.SemanticConventions.OPENINFERENCE_SPAN_KIND,
  OI_TOOL_CALL_FUNCTION_ARGUMENTS: upstream.TOOL_CALL_FUNCTION_ARGUMENTS_JSON,
  OI_KIND_AGENT: upstream.OpenInferenceSpanKind.AGENT,
  OI_KIND_LLM: upstream.OpenInferenceSpanKind.LLM,
  OI_KIND_TOOL: upstream.OpenInferenceSpanKind.TOOL,
};

it('spells every OpenInference name as @arizeai/openinference-semantic-conventions does', () => {
  const ours = Object.entries(openinference);
  expect(ours.length).toBeGreaterThan(25);
  for (const [name, value] of ours) {
    const theirs = renamed[name] ?? (upstream as Record<string, unknown>)[name.replace(/^OI_/, '')];
    expect({ name, value }).toEqual({ name, value: theirs });
  }
});
