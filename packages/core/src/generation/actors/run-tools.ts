import { writeStep } from '../../claims/run-lease.js';
import { unansweredAtDeadline } from '../../input-request/input-deadline.js';
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
 *
 * Before a body runs, its intent is stored: `tool_started` in the event log (with everything
 * logged before it) and, for a job, a step in the claim log, which fences the run out if another
 * delivery took it over. After a crash or a stall, a call with an intent and no result is not run
 * again blindly. The turn's results are all stored before it returns.
 */
export async function runTools(
  scope: RunScope,
  { context, answers, resuming }: RunToolsInput,
): Promise<RunToolsOutput> {
  const { options, publisher, lease } = scope;
  const recovery = options.recovery;
  try {
    const result = await dispatchToolCalls({
      calls: context.turnCalls,
      tools: options.prompt.tools,
      approvalRules: options.prompt.approvalRules,
      completed: context.completedResults,
      recovered: recovery?.completed ?? {},
      ...(recovery && { started: recovery.started }),
      stoppedBy: lease.follows === 'released' ? 'run_failed' : 'worker_lost',
      answers,
      ...(resuming &&
        options.start.kind === 'resume' &&
        options.start.expiring && {
          expiredCalls: unansweredAtDeadline(context.inputRequests),
          expiring: true,
        }),
      delegations: context.delegations,
      waiting: context.inputRequests,
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
      onStarting: async (call, start) => {
        // A body runs live from here on: answers logged by an earlier holder no longer follow.
        scope.replay.length = 0;
        publisher.emit('tool_started', {
          tool_call_id: call.id,
          tool_name: call.name,
          attempt: start.attempt,
          ...(start.reason && { reason: start.reason }),
        });
        await publisher.flush();
        await writeStep(lease, 'tool_started', { toolCallId: call.id, toolName: call.name });
      },
      onCompleted: async (callId, completed) => {
        publisher.emit('tool_completed', { tool_call_id: callId, ...completed });
        options.stream?.push({
          type: 'tool-result',
          toolCallId: callId,
          toolName: completed.tool_name,
          result: completed.result,
          isError: completed.is_error,
        });
      },
      onInputRequest: (request) =>
        options.stream?.push({ type: 'input-request', request: InputRequest.fromJSON(request) }),
    });
    // Every result of the turn is stored before it moves on (the next call's intent waited for the
    // ones before it).
    await publisher.flush();
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
