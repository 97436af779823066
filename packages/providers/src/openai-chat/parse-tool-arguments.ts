/**
 * Parses the JSON arguments string OpenAI models write for a function call. An empty string means
 * no arguments (some models send it for parameterless tools). Invalid JSON is handed on as the raw
 * string, so the tool's input schema rejects it and the model reads why, instead of the whole
 * generation failing on one bad call.
 */
export function parseToolArguments(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
