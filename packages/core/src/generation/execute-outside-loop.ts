import type { ResolvedPrompt } from '../agent/action.js';
import { UnsupportedProviderError } from '../errors/unsupported-provider-error.js';
import { InputRequest } from '../input-request/input-request.js';
import type { ToolCall, ToolResultMessage } from '../provider/provider-adapter.js';
import type { Scrubber } from '../secrets/scrub.js';
import { scrubError } from '../secrets/scrubbed-error.js';
import { evaluateGate } from '../tool/approval-rule.js';
import { idempotencyKeyOf } from '../tool/idempotency-key.js';
import { runInToolScope } from '../tool/tool-context.js';
import { toResultMessages } from './turn-messages.js';

/** What an adapter running its own tool loop is told when a call needs the generation loop. */
const CANNOT_WAIT =
  'which a provider running its own tool loop cannot wait for: return the call in ModelResponse.toolCalls so the generation runs it';

/**
 * Runs one tool call for a provider that loops by itself. Whatever would need a pause (an
 * approval gate, an input request) is refused, the gate before the tool runs, because only the
 * generation loop can stop and come back.
 */
export async function executeOutsideLoop(
  call: ToolCall,
  context: {
    prompt: ResolvedPrompt;
    scrubber: Scrubber;
    generationId: string;
    signal: AbortSignal;
    /** Stores the call's intent before its body runs. */
    onStarting?: () => Promise<void>;
  },
): Promise<ToolResultMessage> {
  const { prompt, scrubber } = context;
  const tool = prompt.tools.get(call.name);
  const completed = (result: unknown, isError: boolean) =>
    toResultMessages([call], {
      [call.id]: { tool_name: call.name, result, is_error: isError },
    })[0] as ToolResultMessage;
  // The gate before the tool runs: a call its rule lets through runs here as anywhere.
  const gate = await evaluateGate(call, tool, prompt.approvalRules);
  if (gate.kind === 'ask') {
    throw new UnsupportedProviderError(`${call.name} needs approval, ${CANNOT_WAIT}`);
  }
  if (gate.kind === 'fail') return completed({ error: scrubber.text(gate.message) }, true);
  if (tool === undefined) return completed({ error: `Unknown tool: ${call.name}` }, true);
  const parsed = tool.parse(call.arguments);
  if (!parsed.success) return completed({ error: scrubber.text(parsed.error) }, true);
  await context.onStarting?.();
  let value: unknown;
  try {
    const toolContext = {
      answer: undefined,
      toolCallId: call.id,
      resuming: false,
      signal: context.signal,
      generationId: context.generationId,
      idempotencyKey: idempotencyKeyOf(context.generationId, call.id),
    };
    value = await runInToolScope({ toolCallId: call.id, answers: new Map() }, () => tool.run(parsed.data, toolContext));
  } catch (error) {
    return completed({ error: scrubError(error, scrubber).message }, true);
  }
  if (InputRequest.isInstance(value)) {
    throw new UnsupportedProviderError(`${call.name} asked for input, ${CANNOT_WAIT}`);
  }
  return completed(scrubber.value(value === undefined ? null : value), false);
}
