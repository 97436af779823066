import type { JetStreamRequests } from './jetstream-requests.js';
import { decodeJson } from './json-codec.js';

/** A stored message as the stream leader answers for it. */
export interface StoredMessage {
  data: Uint8Array;
  seq: number;
  /** Its headers, by name (the first value of each). */
  headers: Map<string, string>;
}

interface MessageGetReply {
  message?: { seq: number; data?: string; hdrs?: string };
  error?: { code: number; err_code: number; description: string };
}

/**
 * The last message on `subject`, read from the stream's leader (`$JS.API.STREAM.MSG.GET`), never
 * from a replica that may lag: a read that decides something must see every write acknowledged
 * before it. (A direct get, `$JS.API.DIRECT.GET`, may be answered by any replica.)
 */
export async function lastMessageOn(
  requests: JetStreamRequests,
  stream: string,
  subject: string,
  timeoutMs?: number,
): Promise<StoredMessage | undefined> {
  const reply = await requests.request(
    `$JS.API.STREAM.MSG.GET.${stream}`,
    Buffer.from(JSON.stringify({ last_by_subj: subject })),
    timeoutMs,
  );
  const answer = decodeJson<MessageGetReply>(reply.data);
  if (answer.error !== undefined) {
    if (answer.error.err_code === 10037) return undefined; // no message found
    const error = new Error(`reading ${subject}: ${answer.error.code} ${answer.error.description}`);
    // The leader is moving or JetStream is catching up (5xx): worth another try, like any transient error.
    if (answer.error.code >= 500) error.name = 'JetStreamStatusError';
    throw error;
  }
  if (answer.message === undefined) throw new Error(`reading ${subject}: an answer without a message`);
  return {
    seq: answer.message.seq,
    data: Buffer.from(answer.message.data ?? '', 'base64'),
    headers: parseHeaders(answer.message.hdrs),
  };
}

/** NATS headers as stored (`NATS/1.0\r\nName: value\r\n…`), base64-encoded. */
function parseHeaders(encoded: string | undefined): Map<string, string> {
  const headers = new Map<string, string>();
  if (encoded === undefined) return headers;
  for (const line of Buffer.from(encoded, 'base64').toString('utf8').split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

/**
 * Removes every message stored on `subject` (`$JS.API.STREAM.PURGE` with a filter), one request
 * asked of the stream leader. A subject with nothing on it purges nothing, which is no error.
 */
export async function purgeSubject(
  requests: JetStreamRequests,
  stream: string,
  subject: string,
  timeoutMs?: number,
): Promise<void> {
  const reply = await requests.request(
    `$JS.API.STREAM.PURGE.${stream}`,
    Buffer.from(JSON.stringify({ filter: subject })),
    timeoutMs,
  );
  const answer = decodeJson<{ success?: boolean; error?: MessageGetReply['error'] }>(reply.data);
  if (answer.error === undefined) return;
  const error = new Error(`purging ${subject}: ${answer.error.code} ${answer.error.description}`);
  if (answer.error.code >= 500) error.name = 'JetStreamStatusError';
  throw error;
}
