import type { Bus } from '../bus/bus.js';
import type { CompletedResult } from '../checkpoint/checkpoint.js';

/**
 * The tool results an interrupted run logged before it stopped (a worker killed mid-job, a model
 * call that failed after the tools ran). Running that run again reuses them instead of calling
 * the tools a second time.
 */
export async function recoverResults(
  bus: Bus,
  generationId: string,
  run: string,
): Promise<Record<string, CompletedResult>> {
  const recovered: Record<string, CompletedResult> = {};
  for (const event of await bus.events(generationId)) {
    if (event.run !== run || event.event !== 'tool_completed') continue;
    recovered[event.data.tool_call_id] = {
      tool_name: event.data.tool_name,
      result: event.data.result,
      is_error: event.data.is_error,
    };
  }
  return recovered;
}
