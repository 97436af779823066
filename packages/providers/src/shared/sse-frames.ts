/** One server-sent event as it crossed the wire: its `event:` name, its `data:` lines joined, its comments. */
export interface SseFrame {
  event: string | undefined;
  data: string;
  /** The last event id the stream set (`id:`), as the standard keeps it across events; absent until one is set. */
  id?: string;
  /** `: …` lines (OpenRouter's `: OPENROUTER PROCESSING` keep-alives), without the colon. */
  comments: string[];
}

/**
 * Reads a `text/event-stream` as it arrives, following the HTML standard's rules and nothing of the
 * SDKs': lines end with CRLF, LF or CR (a chunk may end between the CR and the LF); a blank line
 * ends a frame; a leading colon marks a comment; one space after a field's colon is dropped;
 * several `data:` lines join with LF; an `id:` sets the last event id, kept for later events too
 * (one holding NULL is ignored); a leading byte-order mark is dropped. The corpus checks the
 * adapters against what this reads, so it must not share their code. Unlike the standard, `end()`
 * still hands over a last frame that has data but no blank line after it: recorded bodies and
 * servers that close right after writing end that way.
 *
 * @see https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation
 */
export class SseFrameReader {
  #pending = '';
  #started = false;
  #event: string | undefined;
  #data: string[] = [];
  #comments: string[] = [];
  #touched = false;
  #lastEventId: string | undefined;

  /** Reads one chunk of the stream; returns the frames it completed. */
  push(chunk: string): SseFrame[] {
    let text = this.#pending + chunk;
    if (!this.#started && text !== '') {
      this.#started = true;
      if (text.startsWith('\uFEFF')) text = text.slice(1);
    }
    // A CR at the end may be the first half of a CRLF: it waits for the next chunk.
    const held = text.endsWith('\r') ? '\r' : '';
    const lines = text.slice(0, text.length - held.length).split(/\r\n|\n|\r/);
    this.#pending = `${lines.pop() ?? ''}${held}`;
    const frames: SseFrame[] = [];
    for (const line of lines) this.#readLine(line, frames);
    return frames;
  }

  /** The stream ended: the frames its last, unterminated lines complete. */
  end(): SseFrame[] {
    const frames: SseFrame[] = [];
    for (const line of this.#pending.split(/\r\n|\n|\r/)) if (line !== '') this.#readLine(line, frames);
    this.#pending = '';
    if (this.#data.length > 0) frames.push(this.#frame());
    return frames;
  }

  #readLine(line: string, frames: SseFrame[]): void {
    if (line === '') {
      if (this.#data.length > 0 || (this.#touched && this.#comments.length > 0)) frames.push(this.#frame());
      this.#event = undefined;
      this.#data = [];
      this.#comments = [];
      this.#touched = false;
      return;
    }
    this.#touched = true;
    if (line.startsWith(':')) {
      this.#comments.push(line.slice(1).trim());
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.#event = value;
    if (field === 'data') this.#data.push(value);
    if (field === 'id' && !value.includes('\u0000')) this.#lastEventId = value;
  }

  #frame(): SseFrame {
    const frame: SseFrame = { event: this.#event, data: this.#data.join('\n'), comments: this.#comments };
    if (this.#lastEventId !== undefined) frame.id = this.#lastEventId;
    return frame;
  }
}

/** Every frame of a whole `text/event-stream` body. */
export function readSseFrames(body: string): SseFrame[] {
  const reader = new SseFrameReader();
  return [...reader.push(body), ...reader.end()];
}

/** The frames of a streamed body (a `fetch` response's `body`, say) as they complete. */
export async function* readSseStream(body: AsyncIterable<Uint8Array>): AsyncGenerator<SseFrame> {
  const decoder = new TextDecoder();
  const reader = new SseFrameReader();
  for await (const chunk of body) yield* reader.push(decoder.decode(chunk, { stream: true }));
  yield* reader.push(decoder.decode());
  yield* reader.end();
}

/** The JSON payload of every data frame, in order, leaving out comments-only frames and `[DONE]`. */
export function readSseJson(body: string): { event: string | undefined; value: Record<string, unknown> }[] {
  return readSseFrames(body)
    .filter((frame) => frame.data !== '' && frame.data !== '[DONE]')
    .map((frame) => ({ event: frame.event, value: JSON.parse(frame.data) as Record<string, unknown> }));
}
