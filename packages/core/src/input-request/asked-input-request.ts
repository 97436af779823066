import { type AskedInputRequest, InputRequest, type InputRequestJSON } from './input-request.js';

/** Reads back a paused call's request from the generation's context, where it is always bound to its call. */
export function askedInputRequest(json: InputRequestJSON): AskedInputRequest {
  const request = InputRequest.fromJSON(json);
  if (request.toolCallId === undefined || request.toolName === undefined) {
    throw new TypeError(`The question "${request.prompt}" of a paused generation names no tool call`);
  }
  return request as AskedInputRequest;
}
