import type { StoredCheckpoint } from '../bus/bus.js';
import { parseCheckpoint } from '../checkpoint/parse-checkpoint.js';
import { rebuildCheckpoint } from '../checkpoint/rebuild-checkpoint.js';
import { verifyCheckpoint } from '../checkpoint/sign-checkpoint.js';
import { pauseStanding } from '../claims/can-resume.js';
import { signedClaims } from '../claims/signed-claims.js';
import { ResumeError } from '../errors/resume-error.js';
import type { Runtime } from '../runtime/runtime.js';

/**
 * The latest pause of a generation, for a resume by id, a cancel, a deadline or the pending view.
 * The checkpoint store's record is a view of the generation's log: it is used when it verifies
 * (signed by this runtime's keys for its params, in this deployment, unexpired, of this generation
 * and, when `slot` is given, of that slot). When it is missing or does not (another generation's
 * record moved under this key, a record a client without the key wrote, an older pause stored
 * again), the pause is rebuilt from the generation's own log (`rebuildCheckpoint` over
 * `bus.events()`, which keeps only events signed with the runtime's keys, with the params its
 * `started` event carries) and used if that verifies. Nothing is written back: a reader storing a
 * pause could put an older one over a newer one a resume stored meanwhile. `verified` is the pause
 * to use, if any; `stored` the record as read, for a caller to say why it refuses one.
 */
export async function storedPause(
  runtime: Runtime,
  generationId: string,
  options: { slot?: number } = {},
): Promise<{
  verified: StoredCheckpoint | undefined;
  stored: StoredCheckpoint | undefined;
  /** The verified checkpoint's canonical JSON without its signature (with keys), for its resume. */
  unsigned?: string | undefined;
}> {
  const stored = await runtime.bus.checkpoints.load(generationId);
  const audience = await runtime.audience();
  const now = Date.now();
  const storedCheck = stored && verification(runtime, stored, generationId, options.slot, audience, now);
  if (stored !== undefined && storedCheck !== undefined) return { verified: stored, stored, ...storedCheck };
  const rebuilt = await pauseFromLog(runtime, generationId, audience, stored?.revision);
  const check = rebuilt && verification(runtime, rebuilt.pause, generationId, options.slot, audience, now);
  return check === undefined ? { verified: undefined, stored } : { verified: rebuilt?.pause, stored, ...check };
}

/**
 * The pause of a generation that waits now, for the pending view: the stored checkpoint when it
 * verifies and the claim log shows its slot waiting; else the latest pause of the generation's
 * own log, when that verifies and waits (the record is missing, was forged, or holds an older
 * pause of the generation stored again, whose signature still holds). `askedAt` is the time of
 * that pause's `input_requested` event when it was read from the log. Undefined: nothing waits.
 */
export async function waitingPause(
  runtime: Runtime,
  generationId: string,
): Promise<{ pause: StoredCheckpoint; askedAt?: Date } | undefined> {
  const log = signedClaims(runtime);
  const waits = (pause: StoredCheckpoint) =>
    pauseStanding(log, generationId, pause.checkpoint.claim_slot).then((standing) => standing === 'waiting');
  const stored = await runtime.bus.checkpoints.load(generationId);
  const audience = await runtime.audience();
  const now = Date.now();
  const storedOk =
    stored !== undefined && verification(runtime, stored, generationId, undefined, audience, now) !== undefined;
  if (storedOk && (await waits(stored))) return { pause: stored };
  // Claimed, or not to be believed: the log says which pause is the latest.
  const rebuilt = await pauseFromLog(runtime, generationId, audience, stored?.revision);
  if (
    rebuilt === undefined ||
    verification(runtime, rebuilt.pause, generationId, undefined, audience, now) === undefined
  ) {
    return;
  }
  if (storedOk && rebuilt.pause.checkpoint.claim_slot <= stored.checkpoint.claim_slot) return;
  return (await waits(rebuilt.pause)) ? rebuilt : undefined;
}

/** The latest pause of a generation's own log (events signed with the runtime's keys), signed again, with when it was asked. */
async function pauseFromLog(
  runtime: Runtime,
  generationId: string,
  audience: string | undefined,
  revision = 0,
): Promise<{ pause: StoredCheckpoint; askedAt: Date } | undefined> {
  const events = await runtime.bus.events(generationId);
  const started = events.find((event) => event.event === 'started');
  const checkpoint = rebuildCheckpoint(events, { checkpointKey: runtime.keys, audience });
  const asked = events.findLast((event) => event.event === 'input_requested');
  if (checkpoint === undefined || started?.event !== 'started' || asked === undefined) return undefined;
  return { pause: { checkpoint, params: started.data.params, revision }, askedAt: new Date(asked.time) };
}

/**
 * Whether a stored pause is this runtime's, for this generation (and slot), unexpired and signed
 * as it says: undefined when it is not, else the canonical JSON its signature was checked over
 * (with keys), for the resume that follows.
 */
export function verification(
  runtime: Runtime,
  stored: StoredCheckpoint,
  generationId: string,
  slot: number | undefined,
  audience: string | undefined,
  now: number,
): { unsigned: string | undefined } | undefined {
  const { checkpoint } = stored;
  if (checkpoint?.generation_id !== generationId) return undefined;
  if (slot !== undefined && checkpoint.claim_slot !== slot) return undefined;
  try {
    parseCheckpoint(checkpoint);
    return verifyCheckpoint(checkpoint, runtime.keys, { params: stored.params, audience, now });
  } catch (error) {
    if (ResumeError.isInstance(error)) return undefined;
    throw error;
  }
}
