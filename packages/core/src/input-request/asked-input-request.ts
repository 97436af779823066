import { InputRequest, type InputRequestJSON } from './input-request.js';

/**
 * A question a paused generation asks, as `response.inputRequests` hands it out: bound to the tool
 * call that asked, so `toolCallId` (the key its answer goes under) and `toolName` are always
 * there, and a strict caller can write `answers[request.toolCallId]` without a check.
 */
export type AskedInputRequest = InputRequest & { readonly toolCallId: string; readonly toolName: string };

/** Reads back a paused call's request from the generation's context, where it is always bound to its call. */
export function askedInputRequest(json: InputRequestJSON): AskedInputRequest {
  const request = InputRequest.fromJSON(json);
  if (request.toolCallId === undefined || request.toolName === undefined) {
    throw new TypeError(`The question "${request.prompt}" of a paused generation names no tool call`);
  }
  return request as AskedInputRequest;
}
