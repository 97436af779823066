import { InterludeError } from '@interlude/core';
import {
  createStopBound,
  type DeadLetter,
  type Job,
  type JobConsumer,
  type JobDelivery,
  type JobHandler,
  nestsDeeperThan,
  tooManyDeliveries,
} from '@interlude/core/internal';
import { createInbox, type Msg, type NatsConnection, nanos, type Subscription } from '@nats-io/transport-node';
import { watchConnectionStatus } from './connection-status.js';
import type { JetStreamRequests } from './jetstream-requests.js';
import { decodeJson } from './json-codec.js';
import { isTransientNatsError, type RetryOptions, retryTransient } from './retry.js';

interface LoopSettings {
  concurrency: number;
  ackWaitMs: number;
  /** Deliveries a job gets: a handler that still fails on the last one dead-letters it. */
  maxDeliver: number;
  onError: (error: unknown, context: string) => void;
  retry: RetryOptions;
  /** The job as its handler sees it: its sealed parts opened (`PayloadCodecError` when they cannot be). */
  openJob?: (job: Job) => Job;
  /** Stores a refused job; `messageId` names the stored message, so a retried write lands once. */
  deadLetter: (letter: Omit<DeadLetter, 'queue' | 'version'>, messageId: string) => Promise<void>;
  /** Removes acknowledged jobs the stream kept (`sweepAcknowledgedJobs`): run now and then, and after a reconnect. */
  sweep?: () => Promise<number>;
}

/** How often the consumer sweeps acknowledged jobs the stream kept, and how long after a reconnect. */
const SWEEP_EVERY_MS = 15_000;
const SWEEP_AFTER_RECONNECT_MS = 3_000;

/** How long one pull request waits for jobs before the server ends it with a 408. */
const PULL_EXPIRES_MS = 1_000;
/** A pull the server neither filled nor ended this long after it expired was lost (a restart). */
const PULL_LOST_AFTER_MS = PULL_EXPIRES_MS + 1_000;

const encoder = new TextEncoder();
const ACK_WORKING = encoder.encode('+WPI');
const ACK = encoder.encode('+ACK');

/**
 * Pulls only as many jobs as there are free slots, so a pulled job starts at once and never sits
 * in a buffer while its ack timer runs. One inbox subscription lives as long as the consumer;
 * when slots free up (jobs finishing in the same tick are counted together) and no more than
 * half of them are still asked for, it asks the server for every free slot. Each running job
 * sends a heartbeat every third of the ack wait; it is acknowledged (and the server's
 * confirmation awaited) after its handler resolves, and negatively acknowledged (redelivered
 * after a short backoff) when the handler rejects.
 *
 * The pull protocol is JetStream's own (`$JS.API.CONSUMER.MSG.NEXT`): the server answers a pull
 * with up to `batch` jobs, or ends it with a 408 saying how many it did not deliver. A pull lost
 * with the server (killed, restarted) is written off once it is overdue, and after a reconnect
 * every earlier pull is, so the consumer asks again. An earlier pull may still be alive on the
 * server, though (a reconnect drops the connection, not the server's waiting pulls), and deliver
 * a job when every slot is busy: that job waits in the consumer, kept alive by its heartbeat, and
 * starts when a slot frees, so no more than `concurrency` jobs ever run and none is handed back
 * (which would spend one of its deliveries). `stop()` hands the waiting ones back at once, and
 * the running ones once its `timeoutMs` is reached (the inbox closes first, so the server hands
 * them to another worker). The server may also deliver again, after a drop, a job that did
 * arrive: a copy of a job still held waits for it and is answered as it is, a copy of one
 * acknowledged lately is acknowledged.
 */
export function runJobConsumer(
  connection: NatsConnection,
  requests: JetStreamRequests,
  pullSubject: string,
  handler: JobHandler,
  settings: LoopSettings,
): JobConsumer {
  const inbox = createInbox();
  /** Running jobs, by the task that runs each. */
  const running = new Map<Promise<void>, Held>();
  let stopped = false;
  /** The server answered the last pull with a refusal (JetStream away): not consuming until it answers again. */
  let refused = false;
  /** Jobs asked for and neither delivered nor given up by the server yet. */
  let requested = 0;
  let lastPullAt = 0;
  let lastHeardAt = 0;
  let pullScheduled = false;
  let disconnected = false;
  let retryTimer: NodeJS.Timeout | undefined;
  const active = () => !stopped && !settings.retry.isClosed() && !connection.isClosed();

  /** Jobs delivered while every slot was busy, oldest first, each with its heartbeat running. */
  const waiting: Held[] = [];
  /**
   * Further deliveries of the jobs this consumer holds (running or waiting), by stored message.
   * Across a dropped connection the server may deliver a job again that did arrive, as a first
   * delivery (so its count cannot tell): running the copy too would run its tools twice. A copy
   * is kept alive and answered as the original is, once that one is done.
   */
  const copies = new Map<string, Held[]>();
  /** Stored messages this consumer acknowledged lately: a late copy of one is acknowledged, not run. */
  const acknowledged = new Set<string>();
  /**
   * The last delivery count this consumer ran each failed job at. nats-server 2.9 sometimes
   * redelivers a job handed back with a delay under a count of 1 (seen on 2.9.10: 1, 2, 3, 4, 1,
   * 6): trusted as is, such a job would get a sixth run past its last delivery.
   */
  const attemptsRun = new Map<string, number>();

  /** Tells the server every third of the ack wait that the job is still being worked on. */
  const keepAlive = (message: Msg): NodeJS.Timeout => {
    const heartbeat = setInterval(
      () => {
        try {
          message.respond(ACK_WORKING);
        } catch {
          // The connection is closing: without heartbeats the job is redelivered, which is the point.
        }
      },
      Math.max(100, settings.ackWaitMs / 3),
    );
    heartbeat.unref(); // the job's own work keeps the process alive, not its heartbeat
    return heartbeat;
  };

  /**
   * Runs a job and answers it as its handler's verdict says: acknowledged (dead-lettered first
   * when refused), or left alone when its run was taken over by another delivery. A failed job is
   * handed back with a backoff, which it returns, until its last delivery, which dead-letters it.
   * A delivery that is not a job at all (not JSON) is dead-lettered as it came. A job whose sealed
   * parts this worker cannot open fails the same way (another worker may hold the key), and is
   * dead-lettered still sealed, with the codec's code. A job handed back at a stop's bound is
   * answered no more: another delivery has it now.
   */
  const runOne = async (held: Held): Promise<Answer> => {
    const { message, heartbeat } = held;
    const attempt = Math.max(deliveryCount(message), (attemptsRun.get(held.identity ?? '') ?? 0) + 1);
    const refuse = async (letter: Omit<DeadLetter, 'queue' | 'version' | 'attempt' | 'time'>) => {
      await settings.deadLetter(
        { ...letter, attempt, time: new Date().toISOString() },
        held.identity ?? message.reply ?? '',
      );
      await acknowledge(requests, message, settings.retry);
      return { acknowledged: true } as const;
    };
    let job: Job;
    try {
      job = decodeJson<Job>(message.data);
    } catch (error) {
      clearInterval(heartbeat);
      return refuse({
        reason: { code: 'invalid_job', message: `Not a JSON job: ${(error as Error).message}` },
        raw: Buffer.from(message.data).toString('base64'),
      });
    }
    let opened: Job | undefined;
    try {
      opened = settings.openJob?.(job) ?? job;
      const verdict = await handler(opened, deliveryOf(message, attempt, settings.maxDeliver));
      clearInterval(heartbeat);
      // Handed back at stop's bound: another delivery has it now, and any answer would be a lie.
      if (held.handedBack === true) return { acknowledged: false, handedBack: true };
      if (verdict?.verdict === 'abandon') return { acknowledged: false, abandoned: true };
      if (verdict?.verdict === 'refuse') return refuse({ reason: verdict.reason, ...kept(opened, message) });
      await acknowledge(requests, message, settings.retry);
      return { acknowledged: true };
    } catch (error) {
      clearInterval(heartbeat);
      if (held.handedBack === true) return { acknowledged: false, handedBack: true };
      settings.onError(error, `job on ${message.subject} (delivery ${attempt})`);
      if (attempt >= settings.maxDeliver) {
        const reason = opened === undefined ? unopened(attempt, error) : tooManyDeliveries(attempt, error);
        return refuse({ reason, ...kept(opened ?? job, message) });
      }
      const backoffMs = Math.min(30_000, 250 * 2 ** (attempt - 1));
      rememberAttempt(held.identity, attempt);
      nak(message, backoffMs);
      return { acknowledged: false, backoffMs };
    }
  };

  const rememberAttempt = (identity: string | undefined, attempt: number) => {
    if (identity === undefined) return;
    attemptsRun.set(identity, attempt);
    if (attemptsRun.size > 10_000) attemptsRun.delete(attemptsRun.keys().next().value as string);
  };

  const acknowledgeCopy = (copy: Msg) => {
    acknowledge(requests, copy, settings.retry).catch((error: unknown) =>
      settings.onError(error, `acknowledging a second delivery of ${copy.subject}`),
    );
  };

  /**
   * Answers the copies of a job as the job itself was answered: acknowledged, or handed back. The
   * copies of an abandoned job (another delivery took its run over and holds it) are left alone
   * too: handing one back would have the server deliver the job again, and take the run from the
   * delivery that holds it now.
   */
  const settleCopies = ({ identity }: Held, answer: Answer) => {
    if (identity === undefined || 'handedBack' in answer) return;
    if (answer.acknowledged) {
      attemptsRun.delete(identity);
      acknowledged.add(identity);
      if (acknowledged.size > 1_000) acknowledged.delete(acknowledged.values().next().value as string);
    }
    const held = copies.get(identity) ?? [];
    copies.delete(identity);
    for (const copy of held) {
      clearInterval(copy.heartbeat);
      if (answer.acknowledged) acknowledgeCopy(copy.message);
      else if (!('abandoned' in answer)) nak(copy.message, answer.backoffMs);
    }
  };

  const pull = () => {
    pullScheduled = false;
    if (!active() || disconnected) return;
    const batch = settings.concurrency - running.size - waiting.length - requested;
    // While at least half the slots are still asked for, those pulls take the next jobs as soon as
    // they are queued: asking for a freed slot or two now would only add pulls. Below half, ask
    // for every free slot in one pull (like nats.js's consume() refilling at a threshold).
    if (batch <= 0 || requested * 2 > settings.concurrency) return;
    try {
      connection.publish(pullSubject, JSON.stringify({ batch, expires: nanos(PULL_EXPIRES_MS) }), { reply: inbox });
      requested += batch;
      lastPullAt = Date.now();
    } catch (error) {
      if (!active()) return;
      if (!isTransientNatsError(error)) settings.onError(error, 'pulling jobs');
      retryLater();
    }
  };
  /** Pulls once the current tick is over, so slots freed together are asked for in one pull. */
  const schedulePull = () => {
    if (pullScheduled) return;
    pullScheduled = true;
    queueMicrotask(pull);
  };
  /** Gives up on every pull so far and asks again after a pause (the server said no, or was away). */
  const retryLater = () => {
    if (retryTimer !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      requested = 0;
      schedulePull();
    }, 250);
  };

  const onMessage = (error: Error | null, message: Msg) => {
    if (error !== null) {
      // The server refused the subscription (permissions): nothing will ever arrive on it.
      if (active()) settings.onError(error, 'pulling jobs');
      return;
    }
    lastHeardAt = Date.now();
    const status = message.headers?.code ?? 0;
    refused = false;
    if (message.data.length === 0 && status !== 0) {
      if (status === 100) return; // an idle heartbeat; we ask for none, but it is harmless
      if (status === 408 || status === 409) {
        // The pull ended (expired, or the server had to drop it): what it did not deliver is free again.
        const left = Number(message.headers?.get('Nats-Pending-Messages') ?? Number.NaN);
        requested = Number.isFinite(left) ? Math.max(0, requested - left) : 0;
        if (status === 409 && !/exceeded maxwaiting/i.test(message.headers?.description ?? '')) {
          settings.onError(new Error(`pull ended: ${status} ${message.headers?.description ?? ''}`), 'pulling jobs');
        }
        schedulePull();
        return;
      }
      // 503: JetStream is not there (restarting); anything else is worth a report.
      refused = true;
      if (status !== 503) {
        settings.onError(new Error(`pull refused: ${status} ${message.headers?.description ?? ''}`), 'pulling jobs');
      }
      retryLater();
      return;
    }
    requested = Math.max(0, requested - 1);
    if (!active()) {
      // Pulled while stopping: hand it straight back rather than start it.
      nak(message);
      return;
    }
    const identity = storedMessage(message);
    if (identity !== undefined && acknowledged.has(identity)) {
      acknowledgeCopy(message);
      return;
    }
    const held: Held = { message, heartbeat: keepAlive(message), identity };
    if (identity !== undefined) {
      const copiesOfIt = copies.get(identity);
      if (copiesOfIt !== undefined) {
        copiesOfIt.push(held);
        return;
      }
      copies.set(identity, []);
    }
    if (running.size >= settings.concurrency) waiting.push(held);
    else start(held);
  };

  const start = (held: Held) => {
    const task = runOne(held)
      .then((answer) => settleCopies(held, answer))
      .finally(() => {
        running.delete(task);
        const next = waiting.shift();
        if (next !== undefined) start(next);
        schedulePull();
      });
    running.set(task, held);
  };

  const subscription: Subscription = connection.subscribe(inbox, { callback: onMessage });

  // A pull lost with the server (killed before it answered) is never ended by a 408: write it off.
  const watchdog = setInterval(() => {
    const quietFor = Date.now() - Math.max(lastPullAt, lastHeardAt);
    if (requested > 0 && quietFor > PULL_LOST_AFTER_MS) {
      requested = 0;
      schedulePull();
    }
  }, PULL_EXPIRES_MS);
  watchdog.unref();

  const sweep = () => {
    if (!active() || disconnected || settings.sweep === undefined) return;
    settings.sweep().catch((error: unknown) => {
      if (active() && !isTransientNatsError(error)) settings.onError(error, 'sweeping acknowledged jobs');
    });
  };
  const sweeper = setInterval(sweep, SWEEP_EVERY_MS);
  sweeper.unref();

  // Pulls sent before a reconnect died with the old connection (or the old server): ask again.
  const statuses = watchConnectionStatus(connection, (status) => {
    if (status.type === 'disconnect') disconnected = true;
    else if (status.type === 'reconnect') {
      disconnected = false;
      requested = 0;
      schedulePull();
      setTimeout(sweep, SWEEP_AFTER_RECONNECT_MS).unref();
    }
  });

  schedulePull();
  sweep();

  /** Hands every running job back at once: the bound of a stop was reached. */
  const bound = createStopBound(() => {
    for (const held of running.values()) {
      held.handedBack = true;
      clearInterval(held.heartbeat);
      nak(held.message);
      settleCopies(held, { acknowledged: false });
    }
  });

  return {
    isConsuming: () => active() && !disconnected && !refused,

    async stop(options) {
      bound.moveTo(options?.timeoutMs);
      if (stopped) {
        await bound.wait(Promise.all(running.keys()));
        return;
      }
      stopped = true;
      // The inbox goes first, so the server (which skips a pull nobody listens to any more)
      // delivers what is handed back below to another worker, not to a pull of this one, which
      // would only hand it back again and spend a delivery each time. A job the server sent just
      // before it heard this is redelivered after the ack wait.
      if (!subscription.isClosed()) subscription.unsubscribe();
      clearInterval(watchdog);
      clearInterval(sweeper);
      if (retryTimer !== undefined) clearTimeout(retryTimer);
      statuses.stop();
      for (const held of waiting.splice(0)) {
        clearInterval(held.heartbeat);
        nak(held.message);
        settleCopies(held, { acknowledged: false });
      }
      // Running jobs finish (acknowledged as they do), or are handed back at the bound.
      await bound.wait(Promise.all(running.keys()));
    },
  };
}

/**
 * `+ACK` with a reply: resolves once the server confirms it took the job off the queue. A lost
 * confirmation (the server went away, or restarts) is retried until the server answers, as
 * nats.js's `ackAck()` was: otherwise the finished job would be delivered and run again once the
 * ack wait ran out. Acking a job twice is harmless.
 */
async function acknowledge(requests: JetStreamRequests, message: Msg, retry: RetryOptions): Promise<void> {
  const reply = message.reply;
  if (reply === undefined || reply === '') return;
  await retryTransient(() => requests.request(reply, ACK), retry);
}

function nak(message: Msg, delayMs?: number): void {
  try {
    message.respond(delayMs === undefined ? '-NAK' : `-NAK ${JSON.stringify({ delay: nanos(delayMs) })}`);
  } catch {
    // Closed connection: the ack wait runs out and the job is redelivered anyway.
  }
}

/** Why a job no delivery could open is refused: the codec's code (`unknown_payload_key`, …) and message. */
function unopened(attempt: number, error: unknown): DeadLetter['reason'] {
  const code = InterludeError.isInstance(error) ? error.code : 'invalid_job';
  return { code, message: `Delivered ${attempt} times, never opened: ${(error as Error).message}` };
}

/** What a dead letter keeps of a job: the job, or its bytes when it nests too deep to serialise again. */
function kept(job: Job, message: Msg): { job: Job } | { raw: string } {
  return nestsDeeperThan(job) ? { raw: Buffer.from(message.data).toString('base64') } : { job };
}

/** A delivered job with the heartbeat that keeps it from being delivered again meanwhile. */
interface Held {
  message: Msg;
  heartbeat: NodeJS.Timeout;
  /** Which stored message it is (`storedMessage`), to tell its copies. */
  identity: string | undefined;
  /** Handed back when a stop reached its bound: whatever its handler does later is not answered. */
  handedBack?: boolean;
}

/**
 * How a job was answered: acknowledged, handed back (after `backoffMs`, or at once), left to the
 * delivery that took it over, or handed back earlier by a stop that reached its bound (then
 * neither it nor its copies are answered again).
 */
type Answer =
  | { acknowledged: true }
  | { acknowledged: false; backoffMs?: number }
  | { acknowledged: false; abandoned: true }
  | { acknowledged: false; handedBack: true };

/**
 * The tokens of the ack subject JetStream replies with, from the delivery count on:
 * `$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<time>.<pending>`, or the
 * newer form with a domain and an account hash after `ACK` (and a token at the end).
 */
function ackTokens(message: Msg): string[] {
  const tokens = (message.reply ?? '').split('.');
  return tokens.slice(tokens.length === 9 ? 4 : 6);
}

function deliveryCount(message: Msg): number {
  const count = Number(ackTokens(message)[0]);
  return Number.isInteger(count) && count > 0 ? count : 1;
}

/**
 * Which stored message a delivery is: its stream sequence and the time it was stored, the same
 * in every delivery of it (the time tells a sequence reused by a stream made anew).
 */
function storedMessage(message: Msg): string | undefined {
  const [, sequence, , time] = ackTokens(message);
  return sequence !== undefined && time !== undefined && /^\d+$/.test(sequence) ? `${sequence}@${time}` : undefined;
}

function deliveryOf(message: Msg, attempt: number, maxAttempts: number): JobDelivery {
  const headers: Record<string, string> = {};
  for (const name of message.headers?.keys() ?? []) {
    const value = message.headers?.get(name);
    if (value !== undefined) headers[name] = value;
  }
  return { attempt, headers, maxAttempts };
}
