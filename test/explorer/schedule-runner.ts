import {
  type AskedInputRequest,
  type GenerationEvent,
  type GenerationResponse,
  ResumeError,
  type Runtime,
} from '@interlude/core';
import { DANGEROUS_PROMPT, type ExplorerParams, HARMLESS_PROMPT, personApproves } from './explorer-agent.js';
import { createViolationLog, type Violation } from './invariants.js';
import type { KnownRow } from './known-failures.js';
import type { PendingForgery, Schedule, Step } from './schedule.js';

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** The person's desk lists its own agent's questions, as a desk would: the filter is the checkpoint's to apply. */
const DESK = { agent: 'desk' } as const;
/** A peek reads the whole list or the desk's, by the seed. */
const peekFilter = (seed: number) => (seed % 2 === 0 ? {} : DESK);

/** A client holding no key (neither the checkpoint key nor a payload key), writing records. */
export interface KeylessClient {
  /** Writes `record` under `key` in the pending index (a body naming another generation included, where the store allows it). */
  writePending(key: string, record: Record<string, unknown>): Promise<void>;
  /** Whether a record can be written under a key its body does not name (a server's bucket; not the memory index). */
  canMisplace?: boolean;
  /** Deletes the record under `key` (a server's bucket: a client with write access can; nothing outside a process reaches a memory bus). */
  deletePending?(key: string): Promise<void>;
  /** Writes a claim record into `slot` of a generation's claim log. */
  writeClaim(generationId: string, slot: number, record: Record<string, unknown>): Promise<void>;
  /** Publishes timers for a generation not started yet, under the ids its real timers would get without a key, so they would be dropped as duplicates. */
  preemptTimers(generationId: string): Promise<void>;
}

/** What a schedule runs against: the memory bus in this process, or NATS with worker processes. */
export interface ExplorerWorld {
  /** The person's runtime: answers, `pending()`, `cancel()` go through it. */
  runtime: Runtime;
  /** Queues the resume for a worker (`runtime.answerLater`), counting it as running until it reports. */
  answerLater(generationId: string, answers: Record<string, unknown>): Promise<unknown>;
  /** Starts generation `params` under `generationId` (in process, or as a job for a worker). */
  start(params: ExplorerParams, generationId: string): Promise<void>;
  /** Body runs with an approval so far, by `<generation> <tool call>`. */
  bodyRuns(): Promise<Map<string, number>>;
  /** Moves the clock on by `ms` (virtual on the memory bus, real on NATS). */
  advance(ms: number): Promise<void>;
  /** Lets background work make progress, then resolves once no job it knows of is running (or it gave up). */
  quiesce(generationIds: readonly string[]): Promise<void>;
  /** How far the clock moves at a schedule's end, so every deadline it set has passed. */
  horizonMs: number;
  /**
   * On a real clock: how long after a question's deadline its expiry has surely run (a lost
   * timer delivered again included). The end then waits until the last deadline its generations
   * asked with plus this, instead of the whole horizon from now.
   */
  expiryGraceMs?: number;
  /**
   * Resolves once a person may answer "run it again?" about a call whose outcome is unknown, as
   * documented: no stopped holder can still be inside the call (it was killed, or is fenced).
   */
  beforeOutcomeUnknownAnswer(): Promise<void>;
  /** Generations of other schedules sharing this world (listed by `pending()`, not ours to judge). */
  isForeign?(generationId: string): boolean;
  /** Pending-index records forged for generations that never existed, by any schedule of this world. */
  phantoms: Set<string>;
  /** A client holding no key, writing where the world's bus keeps its records. */
  keyless: KeylessClient;
  /** Faults the world applied to a generation itself (a worker stopped or killed inside its call). */
  causesOf?(generationId: string): readonly KnownRow[];
  /** A keyless client republishes `fromId`'s signed `completed` event on `toId`'s subject. */
  forgeEvent?(fromId: string, toId: string): Promise<boolean>;
  /** Jobs queued that have not reported an outcome: of `generationIds`, or of every generation. */
  jobsRunning(generationIds?: Iterable<string>): number;
  /**
   * The runtimes beside the person's: a second one of this process on a bus of its own. A
   * generation resumed there goes on there (its later pauses, its end are on that bus), so the
   * operator's end answers what they list too, and a generation ended or listed on one counts.
   */
  others?(): readonly Runtime[];
  /** A second runtime in this process, on a bus of its own, resumes `checkpoint` with `answers`. */
  resumeElsewhere?(params: ExplorerParams, checkpoint: unknown, answers: Record<string, boolean>): Promise<void>;
  /** Process faults, on a world that has processes. */
  stallWorker?(ms: number): Promise<void>;
  killWorker?(): Promise<void>;
  restartServer?(): Promise<void>;
  /**
   * Whether a step failing with anything but a `ResumeError` breaks invariant 2. True on the memory
   * bus; a server restart on NATS makes operations fail with `bus_unavailable` for a while, as documented.
   */
  strictSteps: boolean;
  /** Runs a read of the checks again while the bus is briefly out of reach (after a server restart). */
  read?<T>(operation: () => Promise<T>): Promise<T>;
  /** Violations seen while steps ran (a probe inside a tool body). */
  observed?: Violation[];
  /** What a failing seed's report shows of a generation: its log, its claims, what workers said of it. */
  describe?(generationId: string): Promise<string>;
}

interface Tracked {
  id: string;
  params: ExplorerParams;
  /** Faults applied to it, in order: what a violation is attributed to. */
  causes: KnownRow[];
  inFlight: number;
  /** Operations ever started on it: a peek trusts only a generation nothing touched while it read. */
  touched: number;
  /** When its first question can first have expired (it started then, plus its deadline). */
  expiresAfter?: number;
  /** Its start failed (the caller was told): nothing of it is judged. */
  notStarted?: boolean;
}

/** What one schedule showed. */
export interface ScheduleOutcome {
  seed: number;
  violations: Violation[];
  /** Refusals and errors the steps met, by code: what the schedule exercised. */
  refusals: Record<string, number>;
}

/**
 * Runs `schedule` against `world`, then ends it the way an operator would (everything listed in
 * `pending()` answered, every deadline past), and checks the five invariants.
 */
export async function runSchedule(
  schedule: Schedule,
  world: ExplorerWorld,
  newGenerationId: () => string,
): Promise<ScheduleOutcome> {
  const generations: Tracked[] = [];
  const byId = new Map<string, Tracked>();
  const phantoms = world.phantoms;
  const forgedHere = new Set<string>();
  const log = createViolationLog((id) => [
    ...(byId.get(id)?.causes ?? []),
    ...(world.causesOf?.(id) ?? []),
    ...(phantoms.has(id) ? (['keyless-pending-record'] as const) : []),
  ]);
  const refusals: Record<string, number> = {};
  /** Approvals of a call beyond its first (a yes to its outcome-unknown question while the log held no result), by `<generation> <call>`. */
  const approvals = new Map<string, number>();
  const read = <T>(operation: () => Promise<T>): Promise<T> => (world.read ? world.read(operation) : operation());
  const inFlight = new Set<Promise<unknown>>();
  const refused = (error: unknown) => {
    const code = ResumeError.isInstance(error) ? error.code : `error:${(error as Error)?.name ?? typeof error}`;
    refusals[code] = (refusals[code] ?? 0) + 1;
    return code;
  };
  /** Runs `operation` for `target`; `concurrent` leaves it racing the next steps. */
  const perform = async (target: Tracked | undefined, concurrent: boolean, operation: () => Promise<unknown>) => {
    if (target !== undefined) {
      target.inFlight += 1;
      target.touched += 1;
    }
    const running = operation()
      .catch((error: unknown) => {
        const code = refused(error);
        if (world.strictSteps && code.startsWith('error:') && target !== undefined) {
          log.add(2, target.id, `a step failed outside the protocol: ${String(error)}`);
        }
      })
      .finally(() => {
        if (target !== undefined) target.inFlight -= 1;
        inFlight.delete(running);
      });
    inFlight.add(running);
    if (!concurrent) await running;
  };
  const settle = async () => {
    while (inFlight.size > 0) await Promise.all([...inFlight]);
    await world.quiesce(generations.filter(Boolean).map((tracked) => tracked.id));
  };
  /**
   * The person's answers to what `pending()` shows of one generation: yes to the coupon, no to
   * anything else, and yes to "run it again?" about a call whose outcome is unknown, whatever
   * happened (asked once no stopped holder can still be in the call, as documented). That yes is a
   * second approval of the call only when the generation's log holds no result for it: a call whose
   * result is in the log must never run again.
   */
  const decide = async (generationId: string, requests: readonly AskedInputRequest[]) => {
    const answers: Record<string, boolean> = {};
    for (const request of requests) {
      if (request.metadata?.['outcome_unknown'] !== true) {
        answers[request.toolCallId] = personApproves(request.prompt);
        continue;
      }
      await world.beforeOutcomeUnknownAnswer();
      const logged = (await read(() => world.runtime.bus.events(generationId, { everyEpoch: true }))).some(
        (event) => event.event === 'tool_completed' && JSON.stringify(event.data).includes(request.toolCallId),
      );
      if (!logged) {
        const key = `${generationId} ${request.toolCallId}`;
        approvals.set(key, (approvals.get(key) ?? 1) + 1);
      }
      answers[request.toolCallId] = true;
    }
    return answers;
  };
  /** Generations whose answer at the end was refused `already_resumed` after their deadline: their expiry must be logged. */
  const beatenByDeadline = new Set<string>();
  /** What the person answers: what `pending()` shows, else (a stale link) the latest question by id. */
  const answersFor = async (target: Tracked) => {
    const listed = (await world.runtime.pending(DESK)).find((entry) => entry.generationId === target.id);
    if (listed !== undefined) return decide(target.id, listed.inputRequests);
    const asked = (await world.runtime.bus.events(target.id)).filter((event) => event.event === 'input_requested');
    return { [`call_pay_${Math.max(1, asked.length)}`]: !target.params.variant.dangerous };
  };

  for (const step of schedule.steps) {
    const target = 'generation' in step ? generations[step.generation] : undefined;
    if ('generation' in step && step.kind !== 'start' && target === undefined) continue;
    try {
      await runStep(step, target);
    } catch (error) {
      // A step's own reads and writes (a forger's, a peek's) meeting a restarting server: the step is lost, as a client's would be.
      if (world.strictSteps) throw error;
      refused(error);
    }
  }
  await settle();
  await finish();
  return { seed: schedule.seed, violations: [...(world.observed ?? []), ...log.violations], refusals };

  async function runStep(step: Step, target: Tracked | undefined): Promise<void> {
    switch (step.kind) {
      case 'start': {
        const tracked: Tracked = {
          id: newGenerationId(),
          params: { ticket: schedule.seed * 100 + step.generation, variant: step.variant },
          causes: [],
          inFlight: 0,
          touched: 0,
        };
        generations[step.generation] = tracked;
        byId.set(tracked.id, tracked);
        if (step.variant.expiresInMs !== undefined) tracked.expiresAfter = Date.now() + step.variant.expiresInMs;
        if (step.preemptTimers === true) {
          tracked.causes.push('keyless-timer-preempts');
          // The forger's own publish meeting a restarting server is lost, as a client's would be; the start goes on.
          await world.keyless.preemptTimers(tracked.id).catch(refused);
        }
        // A start refused by a restarting server started nothing, as its caller was told: not judged.
        await perform(tracked, false, () =>
          world.start(tracked.params, tracked.id).catch((error: unknown) => {
            tracked.notStarted = true;
            throw error;
          }),
        );
        return;
      }
      case 'answer':
        return perform(target, step.concurrent, async () =>
          world.runtime.answer((target as Tracked).id, await answersFor(target as Tracked)),
        );
      case 'answer-later':
        return perform(target, false, async () =>
          world.answerLater((target as Tracked).id, await answersFor(target as Tracked)),
        );
      case 'answer-elsewhere': {
        const tracked = target as Tracked;
        const stored = await world.runtime.bus.checkpoints.load(tracked.id);
        if (stored === undefined || world.resumeElsewhere === undefined) return;
        if (!tracked.causes.includes('two-runtimes-one-process')) tracked.causes.push('two-runtimes-one-process');
        const answers = await answersFor(tracked);
        return perform(tracked, false, () =>
          (world.resumeElsewhere as NonNullable<ExplorerWorld['resumeElsewhere']>)(
            tracked.params,
            stored.checkpoint,
            answers,
          ),
        );
      }
      case 'cancel':
        return perform(target, step.concurrent, () => world.runtime.cancel((target as Tracked).id, 'explorer'));
      case 'advance':
        await world.advance(step.ms);
        return;
      case 'forge-pending':
        return forgePending(target as Tracked, step.how);
      case 'forge-phantom':
        return forgePhantom();
      case 'forge-claim':
        return forgeClaim(target as Tracked);
      case 'forge-event':
        return forgeEvent(target as Tracked);
      case 'peek':
        return peek();
      case 'settle':
        return settle();
      case 'stall-worker':
        await world.stallWorker?.(step.ms);
        return;
      case 'kill-worker':
        await world.killWorker?.();
        return;
      case 'restart-server':
        await world.restartServer?.();
        return;
    }
  }

  /** The pending-index record a keyless client makes of a real pause: what the store's readable fields hold. */
  async function recordOf(target: Tracked): Promise<Record<string, unknown> | undefined> {
    const stored = await world.runtime.bus.checkpoints.load(target.id);
    const checkpoint = stored?.checkpoint;
    if (checkpoint === undefined || checkpoint.generation_id !== target.id) return undefined;
    return {
      version: 1,
      generation_id: target.id,
      agent: checkpoint.agent,
      action: checkpoint.action_name,
      claim_slot: checkpoint.claim_slot,
      input_requests: checkpoint.input_requests,
      asked_at: new Date().toISOString(),
      ...(checkpoint.audience !== undefined && { audience: checkpoint.audience }),
    };
  }

  /**
   * A keyless client writes to the pending index: the pause's record relabelled harmless, made
   * another deployment's (audience, agent, action), copied under another key, or deleted.
   */
  async function forgePending(target: Tracked, how: PendingForgery): Promise<void> {
    const keyless = world.keyless;
    const record = await recordOf(target);
    if (record === undefined) return;
    switch (how) {
      case 'relabel': {
        if (!JSON.stringify(record).includes(DANGEROUS_PROMPT)) return;
        target.causes.push('keyless-pending-record');
        return keyless.writePending(
          target.id,
          JSON.parse(JSON.stringify(record).replaceAll(DANGEROUS_PROMPT, HARMLESS_PROMPT)),
        );
      }
      case 'audience':
        target.causes.push('keyless-pending-hides');
        return keyless.writePending(target.id, { ...record, audience: 'elsewhere', agent: 'other', action: 'other' });
      case 'misplace': {
        if (keyless.canMisplace !== true) return;
        const elsewhere = newGenerationId();
        phantoms.add(elsewhere);
        forgedHere.add(elsewhere);
        target.causes.push('keyless-pending-record');
        return keyless.writePending(elsewhere, record);
      }
      case 'delete':
        if (keyless.deletePending === undefined) return;
        target.causes.push('keyless-pending-hides');
        return keyless.deletePending(target.id);
    }
  }

  /** A keyless client lists a question for a generation that never existed, copying a real record's shape. */
  async function forgePhantom(): Promise<void> {
    const source = generations.find((tracked) => tracked !== undefined);
    const record = source === undefined ? undefined : await recordOf(source);
    if (record === undefined) return;
    const phantom = newGenerationId();
    phantoms.add(phantom);
    forgedHere.add(phantom);
    await world.keyless.writePending(phantom, { ...record, generation_id: phantom });
  }

  /** A keyless client writes a claim into the slot the pause waits at. */
  async function forgeClaim(target: Tracked): Promise<void> {
    const record = await recordOf(target);
    if (record === undefined) return;
    target.causes.push('unsigned-claims');
    const forged = { version: 1, kind: 'claim', holder: 'forger', epoch: 1, time: new Date().toISOString() };
    await world.keyless.writeClaim(target.id, record['claim_slot'] as number, forged);
  }

  /** A keyless client copies a completed generation's signed `completed` event onto the target's subject. */
  async function forgeEvent(target: Tracked): Promise<void> {
    for (const source of generations) {
      if (source === undefined || source === target || world.forgeEvent === undefined) continue;
      if (!(await world.runtime.bus.events(source.id)).some((event) => event.event === 'completed')) continue;
      target.causes.push('event-on-wrong-subject');
      if (await world.forgeEvent(source.id, target.id)) return;
    }
  }

  /**
   * Everything `pending()` lists must be one of ours and waiting. Only generations nothing touched
   * while the listing was read are judged (an answer racing the read may land on either side).
   */
  async function peek(): Promise<void> {
    const quiet = new Map(
      generations.filter((tracked) => tracked?.inFlight === 0).map((tracked) => [tracked.id, tracked.touched]),
    );
    const busyBefore = new Set(
      generations.filter((tracked) => tracked !== undefined && busy(tracked)).map((t) => t.id),
    );
    const listing = await world.runtime.pending(peekFilter(schedule.seed));
    checkListedOnce(listing.map((entry) => entry.generationId));
    for (const entry of listing) {
      const tracked = byId.get(entry.generationId);
      if (tracked === undefined) {
        if (world.isForeign?.(entry.generationId) === true && !phantoms.has(entry.generationId)) continue;
        log.add(3, entry.generationId, 'pending() lists a generation nobody started');
        continue;
      }
      // Judged only when nothing of this generation moved from before the listing until its log
      // was read: no step of ours on it, no job of it queued, no deadline of it that may be being
      // met. Asked again after the log is read, not before: on a loaded machine the read takes long
      // enough for a deadline to pass and its run to log on meanwhile.
      const untouched = () => quiet.get(tracked.id) === tracked.touched && tracked.inFlight === 0;
      if (!untouched() || busyBefore.has(tracked.id) || busy(tracked)) continue;
      const last = (await world.runtime.bus.events(tracked.id)).at(-1);
      if (!untouched() || busy(tracked)) continue;
      if (last?.event !== 'input_requested') {
        log.add(3, tracked.id, `pending() lists it while its log ends with ${last?.event ?? 'nothing'}`);
      }
    }
  }

  /** Whether a job of the generation is queued, or its deadline has passed and may be being met now. */
  function busy(tracked: Tracked): boolean {
    if (world.jobsRunning([tracked.id]) > 0) return true;
    const deadline = tracked.params.variant.expiresInMs;
    return deadline !== undefined && (tracked.expiresAfter ?? Number.POSITIVE_INFINITY) <= Date.now();
  }

  /** Every generation `pending()` lists, listed once. */
  function checkListedOnce(ids: readonly string[]): void {
    const seen = new Set<string>();
    for (const id of ids) {
      // Ours only: another schedule sharing the world judges its own.
      if (seen.has(id) && byId.has(id)) log.add(3, id, 'pending() lists it more than once');
      seen.add(id);
    }
  }

  /** The operator's end: answer what is listed, let every deadline pass, then check. */
  async function finish(): Promise<void> {
    for (const runtime of runtimes()) await answerListed(runtime);
    await settle();
    await world.advance(await waitForDeadlinesMs());
    await settle();
    const listed = new Set<string>();
    for (const runtime of runtimes()) {
      const listing = (await read(() => runtime.pending(DESK))).map((entry) => entry.generationId);
      checkListedOnce(listing);
      for (const id of listing) listed.add(id);
    }
    for (const phantom of forgedHere) {
      if (listed.has(phantom)) log.add(3, phantom, 'pending() still lists a generation nobody started');
    }
    const runs = await world.bodyRuns();
    for (const tracked of generations) {
      if (tracked === undefined) continue;
      const events = await read(() => world.runtime.bus.events(tracked.id, { everyEpoch: true }));
      if (tracked.notStarted === true && events.length === 0) continue;
      await checkEnded(tracked, events, listed);
      checkOwnEvents(tracked, events);
      if (beatenByDeadline.has(tracked.id) && !events.some((event) => event.event === 'input_expired')) {
        log.add(
          3,
          tracked.id,
          'listed by pending(), yet its answer was refused (already_resumed), and no deadline took it',
        );
      }
      for (const pause of [1, 2]) {
        const count = runs.get(`${tracked.id} call_pay_${pause}`) ?? 0;
        const approved = approvals.get(`${tracked.id} call_pay_${pause}`) ?? 1;
        if (count > approved && !tracked.params.variant.idempotent) {
          log.add(1, tracked.id, `the body of call_pay_${pause} ran ${count} times for ${approved} approval(s)`);
        }
        if (count > 0 && tracked.params.variant.dangerous) {
          log.add(5, tracked.id, `call_pay_${pause} ran though the person never approved its question`);
        }
      }
    }
  }

  /** The whole horizon, or on a real clock until the last deadline our questions carry has run out. */
  async function waitForDeadlinesMs(): Promise<number> {
    if (world.expiryGraceMs === undefined) return world.horizonMs;
    let last = Date.now();
    for (const tracked of generations) {
      if (tracked?.params.variant.expiresInMs === undefined) continue;
      for (const runtime of runtimes()) {
        for (const event of await read(() => runtime.bus.events(tracked.id, { everyEpoch: true }))) {
          if (event.event !== 'input_requested') continue;
          for (const request of event.data.input_requests) {
            if (request.expires_at !== undefined) last = Math.max(last, Date.parse(request.expires_at));
          }
        }
      }
    }
    return Math.min(world.horizonMs, last - Date.now() + world.expiryGraceMs);
  }

  /** The person's runtime first, then any beside it. */
  function runtimes(): readonly Runtime[] {
    return [world.runtime, ...(world.others?.() ?? [])];
  }

  /** The operator answers every generation of this schedule that `runtime` lists. */
  async function answerListed(runtime: Runtime): Promise<void> {
    for (const entry of await read(() => runtime.pending(DESK))) {
      const tracked = byId.get(entry.generationId);
      if (tracked === undefined) continue;
      const answers = await decide(tracked.id, entry.inputRequests);
      await runtime.answer(tracked.id, answers).then(
        (response: GenerationResponse) => response,
        async (error: unknown) => {
          const code = refused(error);
          // On a real clock the deadline may pass between the listing and the answer: the answer
          // is refused `expired`, or, checked just before the deadline and claimed just after it
          // (a loaded machine widens that gap), `already_resumed`: the deadline's own run claimed
          // the pause first. Either way one resume ran, as promised; for the second, the log must
          // then show the expiry (checked at the end).
          const pastDeadline = (entry.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY) <= Date.now();
          if (pastDeadline && code === 'expired') return;
          if (pastDeadline && code === 'already_resumed') {
            beatenByDeadline.add(tracked.id);
            return;
          }
          log.add(3, tracked.id, `listed by pending(), yet its answer was refused (${code}): not waiting`);
        },
      );
    }
  }

  /** Ended (on the person's bus, or on the one beside it where it was resumed), or listed by one of them. */
  async function checkEnded(tracked: Tracked, events: readonly GenerationEvent[], listed: Set<string>): Promise<void> {
    const latest = latestEvent(events);
    if (latest !== undefined && TERMINAL.has(latest)) return;
    if (listed.has(tracked.id)) return;
    for (const other of world.others?.() ?? []) {
      const there = latestEvent(await other.bus.events(tracked.id, { everyEpoch: true }));
      if (there !== undefined && TERMINAL.has(there)) return;
    }
    log.add(2, tracked.id, `neither ended nor listed by pending(): its log ends with ${latest ?? 'nothing'}`);
  }

  function checkOwnEvents(tracked: Tracked, events: readonly GenerationEvent[]): void {
    const stray = events.filter((event) => event.generation_id !== tracked.id);
    if (stray.length > 0) log.add(4, tracked.id, `its log holds ${stray.length} events of other generations`);
  }
}

/** The last event of the latest epoch, as a reader of the log settles what happened. */
function latestEvent(events: readonly GenerationEvent[]): string | undefined {
  if (events.some((event) => TERMINAL.has(event.event))) {
    return events.findLast((event) => TERMINAL.has(event.event))?.event;
  }
  return events.at(-1)?.event;
}
