import {
  type ChoiceOption,
  type InputRequestJSON,
  isLabelledOption,
  type JsonValue,
} from '../input-request/input-request-json.js';
import { scrubSchema, type TextScrubber } from './scrub-schema.js';
import { FILTERED } from './secret-matcher.js';

/** What scrubbing a question needs of a `Scrubber` (see `TextScrubber`). */
export interface InputRequestScrubber extends TextScrubber {
  readonly isEmpty: boolean;
  contains(value: unknown): boolean;
  holdOption(toolCallId: string, placeholder: string, value: JsonValue): void;
}

const PLACEHOLDER = /^\[FILTERED\] option \d+$/;

/** What a choice shows for its `index`th option when the option's value held a secret. */
function secretOptionPlaceholder(index: number): string {
  return `${FILTERED} option ${index + 1}`;
}

/** Whether an answer picks an option that `scrubInputRequest` replaced. */
export function isSecretOptionPlaceholder(answer: unknown): answer is string {
  return typeof answer === 'string' && PLACEHOLDER.test(answer);
}

/**
 * A question a tool asks once a secret was answered, scrubbed before it is stored, published or
 * returned: its prompt, metadata, arguments, option labels and schema (`scrubSchema`). Its kind,
 * call id and tool name are the framework's and stay, so the question can still be told apart and
 * routed. An option whose value holds a secret — built from it, or merely equal to it, a PIN typed
 * as `confirm` — shows `[FILTERED] option <n>` instead; this process keeps the real value with
 * the generation's secrets and gives it to the tool when the person picks that option
 * (`restoreSecretOptions`), so the question stays answerable.
 */
export function scrubInputRequest(scrubber: InputRequestScrubber, request: InputRequestJSON): InputRequestJSON {
  if (scrubber.isEmpty) return request;
  // Assigned over a copy, so the keys keep the order `toJSON()` wrote them in.
  const scrubbed: InputRequestJSON = { ...request, prompt: scrubber.text(request.prompt) };
  if (request.options !== undefined) {
    scrubbed.options = request.options.map((option, index) => scrubOption(scrubber, request, option, index));
  }
  if (request.schema !== undefined) scrubbed.schema = scrubSchema(scrubber, request.schema);
  if (request.metadata !== undefined) scrubbed.metadata = scrubber.value(request.metadata);
  if ('arguments' in request) scrubbed.arguments = scrubber.value(request.arguments);
  return scrubbed;
}

function scrubOption(
  scrubber: InputRequestScrubber,
  request: InputRequestJSON,
  option: ChoiceOption,
  index: number,
): ChoiceOption {
  const labelled = isLabelledOption(option);
  const value = labelled ? option.value : option;
  let shown = value;
  // A second pass (the event publisher's) must not take a placeholder for a secret: a secret
  // `option` would otherwise hold the placeholder as the real value.
  if (!isSecretOptionPlaceholder(value) && scrubber.contains(value)) {
    shown = secretOptionPlaceholder(index);
    if (request.tool_call_id !== undefined) scrubber.holdOption(request.tool_call_id, shown, value);
  }
  return labelled ? { ...option, value: shown, label: scrubber.text(option.label) } : shown;
}
