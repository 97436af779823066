/** One server-sent event as it crossed the wire: its `event:` name, its `data:` lines joined, its comments. */
export interface SseFrame {
  event: string | undefined;
  data: string;
  /** `: …` lines (OpenRouter's `: OPENROUTER PROCESSING` keep-alives), without the colon. */
  comments: string[];
}

/**
 * Splits a raw `text/event-stream` body into frames, following the HTML standard's rules and
 * nothing of the SDKs': lines end with CRLF, LF or CR; a blank line ends a frame; a leading colon
 * marks a comment; one space after a field's colon is dropped; several `data:` lines join with
 * LF. The corpus checks the adapters against what this reads, so it must not share their code.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export function readSseFrames(body: string): SseFrame[] {
  const frames: SseFrame[] = [];
  let event: string | undefined;
  let data: string[] = [];
  let comments: string[] = [];
  let touched = false;
  for (const line of body.split(/\r\n|\n|\r/)) {
    if (line === '') {
      if (data.length > 0) frames.push({ event, data: data.join('\n'), comments });
      else if (touched && comments.length > 0) frames.push({ event, data: '', comments });
      event = undefined;
      data = [];
      comments = [];
      touched = false;
      continue;
    }
    touched = true;
    if (line.startsWith(':')) {
      comments.push(line.slice(1).trim());
      continue;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    if (field === 'data') data.push(value);
  }
  if (data.length > 0) frames.push({ event, data: data.join('\n'), comments });
  return frames;
}

/** The JSON payload of every data frame, in order, leaving out comments-only frames and `[DONE]`. */
export function readSseJson(body: string): { event: string | undefined; value: Record<string, unknown> }[] {
  return readSseFrames(body)
    .filter((frame) => frame.data !== '' && frame.data !== '[DONE]')
    .map((frame) => ({ event: frame.event, value: JSON.parse(frame.data) as Record<string, unknown> }));
}
