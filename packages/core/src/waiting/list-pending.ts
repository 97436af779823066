import type { PendingEntry } from '../bus/bus.js';
import { isPayloadCodecError } from '../errors/payload-codec-marker.js';
import { warnOnce } from '../errors/warn-once.js';
import { askedInputRequest } from '../input-request/asked-input-request.js';
import type { Runtime } from '../runtime/runtime.js';
import type { PendingFilter, PendingGeneration } from './pending-generation.js';
import { waitingPause } from './stored-pause.js';

export type { PendingFilter, PendingGeneration } from './pending-generation.js';

/**
 * The generations paused on a question right now, oldest first. A view, not a store: the bus's
 * pending index only names generations to look at (by its records' keys, each once); everything
 * listed, and whether it is listed at all, is read from the generation's own records: its stored
 * checkpoint, believed once its signature verifies with its params for this deployment and it names
 * that generation, and the claim log, which must show its slot waiting; else (the record missing,
 * forged, or an older pause stored again) the latest pause of its log, if that verifies and waits
 * (`waitingPause`). A pause is left out once its deadline has passed, since an answer would be
 * refused. Agent and action are the checkpoint's. So an index record a keyless client wrote,
 * altered or deleted relabels nothing, hides nothing and lists nothing: the index's one fact of its
 * own is when a question was asked, an order.
 */
export async function listPending(runtime: Runtime, filter: PendingFilter = {}): Promise<PendingGeneration[]> {
  checkFilter(filter);
  const index = runtime.bus.pending;
  if (index === undefined) return [];
  const now = Date.now();
  const entries = new Map((await index.entries()).map((entry) => [entry.generationId, entry]));
  const listed = await Promise.all([...entries.values()].map((entry) => readablePause(runtime, entry, now)));
  return listed
    .filter((pause): pause is PendingGeneration => pause !== undefined)
    .filter(
      (pause) =>
        (filter.agent === undefined || pause.agent === filter.agent) &&
        (filter.action === undefined || pause.action === filter.action),
    )
    .sort((a, b) => a.askedAt.getTime() - b.askedAt.getTime());
}

/**
 * `verifiedPause`, but a generation whose records this process cannot open (sealed with a payload
 * key it does not hold: another deployment's on a shared bucket, a key since retired, a process
 * started without `INTERLUDE_PAYLOAD_KEY`; or altered) is left out and said once, instead of
 * failing the whole list: no one else's question is listed, and every question this process can
 * read still is. A resume of that generation is refused with the codec's error, as before.
 */
async function readablePause(
  runtime: Runtime,
  entry: PendingEntry,
  now: number,
): Promise<PendingGeneration | undefined> {
  try {
    return await verifiedPause(runtime, entry, now);
  } catch (error) {
    if (!isPayloadCodecError(error)) throw error;
    warnOnce(
      `unreadable pause\n${entry.generationId}\n${error.code}`,
      `${error.code}: pending() left out ${entry.generationId}, whose records it cannot open: ${error.message}`,
    );
    return undefined;
  }
}

/** The pause an index entry names, read from the generation's verified records, if it still waits. */
async function verifiedPause(
  runtime: Runtime,
  entry: PendingEntry,
  now: number,
): Promise<PendingGeneration | undefined> {
  const { generationId } = entry;
  const found = await waitingPause(runtime, generationId);
  if (found === undefined) return undefined;
  const { checkpoint } = found.pause;
  const deadline = checkpoint.input_expires_at;
  if (deadline !== undefined && Date.parse(deadline) <= now) return undefined;
  return {
    generationId,
    agent: checkpoint.agent,
    action: checkpoint.action_name,
    inputRequests: checkpoint.input_requests.map(askedInputRequest),
    askedAt: found.askedAt ?? (await askedAtOf(runtime, entry)),
    expiresAt: deadline === undefined ? undefined : new Date(deadline),
  };
}

/** When the question was asked: the index's record says, when it is intact; else the pause's own event. */
async function askedAtOf(runtime: Runtime, entry: PendingEntry): Promise<Date> {
  const indexed = entry.askedAt === undefined ? Number.NaN : Date.parse(entry.askedAt);
  if (!Number.isNaN(indexed)) return new Date(indexed);
  const asked = (await runtime.bus.events(entry.generationId)).findLast((event) => event.event === 'input_requested');
  return new Date(asked === undefined ? 0 : asked.time);
}

function checkFilter(filter: unknown): asserts filter is PendingFilter {
  if (typeof filter !== 'object' || filter === null) throw new TypeError('pending() takes { agent?, action? }');
  for (const key of ['agent', 'action'] as const) {
    const value = (filter as Record<string, unknown>)[key];
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new TypeError(`pending()'s ${key} must be a non-empty string, got ${JSON.stringify(value)}`);
    }
  }
}
