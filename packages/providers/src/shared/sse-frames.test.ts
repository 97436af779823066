import { describe, expect, it } from 'vitest';
import { readSseFrames, readSseStream, SseFrameReader } from './sse-frames.js';

const frames = [
  { event: 'transition', data: '{"id":1}', comments: [] },
  { event: undefined, data: 'first\nsecond', comments: ['keep-alive'] },
  { event: undefined, data: '[DONE]', comments: [] },
];

/** The same three frames with every line ending the standard allows. */
const bodies = {
  LF: 'event: transition\ndata: {"id":1}\n\n: keep-alive\ndata: first\ndata:second\n\ndata: [DONE]\n\n',
  CRLF: 'event: transition\r\ndata: {"id":1}\r\n\r\n: keep-alive\r\ndata: first\r\ndata:second\r\n\r\ndata: [DONE]\r\n\r\n',
  CR: 'event: transition\rdata: {"id":1}\r\r: keep-alive\rdata: first\rdata:second\r\rdata: [DONE]\r\r',
};

function readInTwo(body: string, at: number) {
  const reader = new SseFrameReader();
  return [...reader.push(body.slice(0, at)), ...reader.push(body.slice(at)), ...reader.end()];
}

describe('the SSE reader', () => {
  for (const [ending, body] of Object.entries(bodies)) {
    it(`reads frames whose lines end with ${ending}, however the stream is cut into chunks`, () => {
      expect(readSseFrames(body)).toEqual(frames);
      for (let at = 0; at <= body.length; at += 1) expect(readInTwo(body, at)).toEqual(frames);
    });
  }

  it('hands over a frame as soon as its blank line arrives, not before', () => {
    const reader = new SseFrameReader();
    expect(reader.push('data: a\r')).toEqual([]);
    // The LF completes the CRLF of the data line: it is not a blank line ending the frame.
    expect(reader.push('\ndata: b\r\n')).toEqual([]);
    expect(reader.push('\r\n')).toEqual([{ event: undefined, data: 'a\nb', comments: [] }]);
  });

  it('keeps the last event id for later events, as the standard does, and ignores one holding NULL', () => {
    const body = 'id: 1\r\ndata: a\r\n\r\ndata: b\r\n\r\nid: 2\u0000\r\ndata: c\r\n\r\nid:\r\ndata: d\r\n\r\n';
    expect(readSseFrames(body).map((frame) => [frame.data, frame.id])).toEqual([
      ['a', '1'],
      ['b', '1'],
      ['c', '1'],
      ['d', ''],
    ]);
    expect(readSseFrames('data: e\n\n')[0]).not.toHaveProperty('id');
  });

  it('drops a leading byte-order mark and reads a streamed body decoded across chunks', async () => {
    const bytes = new TextEncoder().encode(`\uFEFF${bodies.CRLF.replace('first', 'fïrst')}`);
    async function* oneByteAtATime() {
      for (const byte of bytes) yield Uint8Array.of(byte);
    }
    const read = [];
    for await (const frame of readSseStream(oneByteAtATime())) read.push(frame);
    expect(read.map((frame) => frame.data)).toEqual(['{"id":1}', 'fïrst\nsecond', '[DONE]']);
  });
});
