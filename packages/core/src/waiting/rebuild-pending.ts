import { pauseStanding } from '../claims/can-resume.js';
import { signedClaims } from '../claims/signed-claims.js';
import type { Runtime } from '../runtime/runtime.js';
import { recordWaiting } from './record-waiting.js';
import { storedPause } from './stored-pause.js';

/**
 * `runtime.rebuildPending()`: the pending index made again from the logs. For each generation
 * whose event log holds a pause, its latest pause (the stored checkpoint if it verifies, else the
 * one rebuilt from the log) is listed again, asked at the time its `input_requested` event says,
 * and its timer set again (a timer kept already is kept once), if the claim log shows the pause
 * still waiting. Generations are taken one at a time: a rebuild is an operator's repair, not a
 * hot path, and should not crowd out the runtime's own work.
 */
export async function rebuildPendingIndex(runtime: Runtime): Promise<number> {
  const { bus } = runtime;
  if (bus.pending === undefined || bus.pausedGenerations === undefined) return 0;
  let listed = 0;
  for (const generationId of await bus.pausedGenerations()) {
    const { verified } = await storedPause(runtime, generationId);
    if (verified === undefined) continue;
    const { checkpoint } = verified;
    const slot = checkpoint.claim_slot as number;
    if ((await pauseStanding(signedClaims(runtime), generationId, slot)) !== 'waiting') continue;
    const asked = (await bus.events(generationId)).findLast((event) => event.event === 'input_requested');
    await recordWaiting(bus, checkpoint, asked === undefined ? new Date() : new Date(asked.time));
    listed += 1;
  }
  return listed;
}
