import { createHash } from 'node:crypto';
import { TrustError } from '../errors/trust-error.js';
import type { InputRequestJSON } from '../input-request/input-request.js';
import { canonicalJson } from './canonical-json.js';
import type { CheckpointKeys } from './checkpoint-keys.js';

/**
 * What an answer token says: the one question it may answer (a generation, the call that asked, the
 * pause it asked in, the kind of question and a digest of what a valid answer is) and until when.
 * Anything else it is shown to (another call, a later pause of the same call, a question whose
 * options or schema changed) it refuses.
 */
export interface AnswerTokenClaims {
  generationId: string;
  toolCallId: string;
  /** The claim slot of the pause it was issued for: once that pause is answered, the token is spent. */
  claimSlot: number;
  kind: InputRequestJSON['kind'];
  /** `answerDigestOf` the question: its kind, options and schema. */
  answerDigest: string;
  /** The deployment it was issued in, when the runtime has one. */
  audience?: string;
  /** Milliseconds since the epoch, whole seconds. */
  expiresAt: number;
}

/** `runtime.answerToken()`'s options. */
export interface AnswerTokenOptions {
  /** Milliseconds from now; default 24 hours. Never past the question's own deadline. */
  expiresIn?: number;
}

/** The token's version, written first in its payload: a token of another version is refused. */
const TOKEN_VERSION = 1;

/**
 * What a valid answer to a question is, as 22 URL-safe characters: the first 128 bits of SHA-256
 * over the canonical JSON of its kind, options and schema. A token carries it, so a token issued
 * for one question never answers another that happens to sit under the same call id.
 */
export function answerDigestOf(request: Pick<InputRequestJSON, 'kind' | 'options' | 'schema'>): string {
  const shape = { kind: request.kind, options: request.options ?? null, schema: request.schema ?? null };
  return createHash('sha256').update(canonicalJson(shape)).digest().subarray(0, 16).toString('base64url');
}

/**
 * Signs an answer token: `<payload>.<key id>.<signature>`, the payload base64url JSON, the signature
 * the HMAC-SHA256 of the payload text (as `signTagged` writes it) under the runtime's signing key with its own purpose
 * label (`interlude/answer-token/v1\n`), so no checkpoint, job or event signature passes for one.
 * URL-safe throughout: it can go in a link.
 */
export function signAnswerToken(keys: CheckpointKeys, claims: AnswerTokenClaims): string {
  const payload = Buffer.from(
    JSON.stringify({
      v: TOKEN_VERSION,
      g: claims.generationId,
      c: claims.toolCallId,
      s: claims.claimSlot,
      k: claims.kind,
      h: claims.answerDigest,
      ...(claims.audience !== undefined && { a: claims.audience }),
      e: Math.floor(claims.expiresAt / 1000),
    }),
  ).toString('base64url');
  return `${payload}.${keys.signTagged('answer-token', payload)}`;
}

/**
 * Reads a token back once its signature and expiry check out. Throws `TrustError`
 * `invalid_answer_token` for anything malformed, altered or signed with a key not held (or when
 * signing is off: no token can be checked then), `expired_answer_token` past its time.
 */
export function verifyAnswerToken(
  keys: CheckpointKeys | undefined,
  token: unknown,
  now: number = Date.now(),
): AnswerTokenClaims {
  const invalid = (why: string) => new TrustError('invalid_answer_token', `The answer token ${why}`);
  if (typeof token !== 'string' || token.length > 4_096) throw invalid('is not a token');
  const dot = token.indexOf('.');
  if (dot <= 0) throw invalid('is not a token');
  const payload = token.slice(0, dot);
  if (keys === undefined) throw invalid('cannot be checked: signing is off in this runtime');
  if (keys.verifyTagged('answer-token', payload, token.slice(dot + 1)) !== 'valid') {
    throw invalid('does not carry a valid signature of this deployment');
  }
  const claims = parsePayload(payload);
  if (claims === undefined) throw invalid('is not a token');
  if (claims.expiresAt <= now) {
    throw new TrustError(
      'expired_answer_token',
      `The answer token for call ${claims.toolCallId} expired at ${new Date(claims.expiresAt).toISOString()}`,
    );
  }
  return claims;
}

function parsePayload(payload: string): AnswerTokenClaims | undefined {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { v, g, c, s, k, h, a, e } = body;
  const kinds: readonly unknown[] = ['confirm', 'text', 'choice', 'secret'];
  if (
    v !== TOKEN_VERSION ||
    typeof g !== 'string' ||
    typeof c !== 'string' ||
    !Number.isInteger(s) ||
    !kinds.includes(k) ||
    typeof h !== 'string' ||
    (a !== undefined && typeof a !== 'string') ||
    !Number.isInteger(e)
  ) {
    return undefined;
  }
  return {
    generationId: g,
    toolCallId: c,
    claimSlot: s as number,
    kind: k as AnswerTokenClaims['kind'],
    answerDigest: h,
    ...(a !== undefined && { audience: a as string }),
    expiresAt: (e as number) * 1000,
  };
}
