import { InputRequest } from '../../input-request/input-request.js';
import { scrubError } from '../../secrets/scrubbed-error.js';
import { dispatchToolCalls } from '../../tool/dispatch-tool-calls.js';
import type { RunToolsInput, RunToolsOutput } from '../generation-machine.js';
import type { RunScope } from '../run-scope.js';
import { toResultMessages } from '../turn-messages.js';

/**
 * The `runTools` actor of one run: dispatches the turn's calls (fresh or resumed), publishes and
 * streams each result as it lands, and builds the messages that carry the results back once
 * nothing is left waiting.
 */
export async function runTools(
  scope: RunScope,
  { context, answers, resuming }: RunToolsInput,
): Promise<RunToolsOutput> {
  const { options, publisher } = scope;
  try {
    const result = await dispatchToolCalls({
      calls: context.turnCalls,
      tools: options.prompt.tools,
      gatedTools: options.prompt.gatedTools,
      completed: context.completedResults,
      recovered: options.recovered ?? {},
      answers,
      approvalCalls: new Set(context.approvalToolCalls),
      mcpCalls: new Set(context.mcpToolCalls),
      approvedCalls: new Set(context.approvedToolCalls),
      secretCalls: new Map(
        context.inputRequests
          .filter((request) => request.kind === 'secret')
          .map((request) => [request.tool_call_id as string, request]),
      ),
      scrubber: scope.scrubber,
      generationId: scope.generationId,
      resuming,
      get signal() {
        return scope.toolSignal;
      },
      ...(scope.trace && { trace: scope.trace }),
      onCompleted: async (callId, completed) => {
        publisher.emit('tool_completed', { tool_call_id: callId, ...completed });
        options.stream?.push({
          type: 'tool-result',
          toolCallId: callId,
          toolName: completed.tool_name,
          result: completed.result,
          isError: completed.is_error,
        });
        // Stored before the next call runs: a replay after a crash finds it and does not run it again.
        await publisher.flush();
      },
      onInputRequest: (request) =>
        options.stream?.push({ type: 'input-request', request: InputRequest.fromJSON(request) }),
    });
    const resultMessages =
      result.inputRequests.length > 0
        ? []
        : options.agent.provider.toolResultMessages(toResultMessages(context.turnCalls, result.completed));
    return { ...result, resultMessages };
  } catch (error) {
    scope.failure = scrubError(error, scope.scrubber);
    throw scope.failure;
  }
}
