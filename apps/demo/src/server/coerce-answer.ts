import type { ChoiceOption, InputRequestJSON, JsonValue } from '@interlude/core';

/**
 * Turns what a person typed or clicked into the answer core expects for the question's kind:
 * `true`/`false` for a confirm, one of the option values for a choice, a string for text and
 * secrets. Only the boolean `false` declines any question (the page's Decline button, the
 * terminal client's `decline`): what a person typed is their answer, so the text `false` stays
 * text. A confirm reads typed words (`yes`, `no`, `false`…) as its two answers. The terminal
 * client sends strings, the page sends typed values; both land here. Throws a `TypeError` a
 * person can read.
 */
export function coerceAnswer(request: InputRequestJSON, value: unknown): unknown {
  if (value === false) return false;
  if (request.kind === 'confirm') {
    if (value === true || (typeof value === 'string' && /^(true|yes|y|approve)$/i.test(value))) return true;
    if (typeof value === 'string' && /^(false|no|n|decline)$/i.test(value)) return false;
    throw new TypeError(`"${request.prompt}" takes yes or no`);
  }
  if (request.kind === 'choice') {
    const values = (request.options ?? []).map(optionValue);
    const match = values.find((option) => option === value || String(option) === String(value));
    if (match === undefined) {
      throw new TypeError(`"${request.prompt}" takes one of: ${values.map((option) => String(option)).join(', ')}`);
    }
    return match;
  }
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`"${request.prompt}" needs some text`);
  return value;
}

/** The value a choice option stands for: the option itself, or its `value` when it has a label. */
function optionValue(option: ChoiceOption): JsonValue {
  if (
    typeof option === 'object' &&
    option !== null &&
    !Array.isArray(option) &&
    'value' in option &&
    'label' in option
  ) {
    return option.value as JsonValue;
  }
  return option;
}
