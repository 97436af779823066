import type { TrustError } from '@interlude/core';
import {
  type CheckpointKeys,
  type InputTimer,
  signTimer,
  type TimerHandler,
  type TimerQueue,
  timerMessageId,
  timerRefusal,
} from '@interlude/core/internal';
import { AckPolicy, DeliverPolicy, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { headers as createHeaders, nanos } from '@nats-io/transport-node';
import { type Answer, handBack, holdJob, storedMessage } from './held-job.js';
import { type JetStreamRequests, MSG_ID_HEADER } from './jetstream-requests.js';
import { createJobCopies } from './job-copies.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { type RetryOptions, retryTransient } from './retry.js';
import type { NatsNames } from './subjects.js';

/** A timer whose handler failed is offered again this much later. */
const RETRY_DELAY_MS = 5_000;
/** The longest a not-yet-due timer is put back for at once (it is looked at again then). */
const LONGEST_WAIT_MS = 60 * 60 * 1_000;

/**
 * Deadlines on the work-queue stream `INTERLUDE_TIMERS`, one message per pause, signed with the
 * runtime's keys (`signTimer`) under a message id only a key holder can write (`timerMessageId`),
 * so a pause scheduled twice is kept once and a client without the key can neither have the real
 * timer dropped as a duplicate nor have a timer of its own met: one that does not verify is
 * dropped (reported to `onError`). nats-server has no scheduled
 * messages before 2.12, so the workers serving an agent share one durable consumer of its timers
 * (`interlude_timers_<agent>`) and put back a timer that is
 * not due yet with a delayed negative acknowledgement, until it is; a due one is handed to the
 * handler and acknowledged (removed) once the handler resolved, heartbeats keeping it meanwhile.
 * A worker that dies holding it (or stalls, sending no heartbeat) hands it on after `ackWaitMs`,
 * the jobs' ack wait, since meeting the deadline is a job; a handler that rejects gets it again
 * five seconds later; one that abandons it (a later delivery took its run over) leaves it
 * unanswered, to that delivery. A timer delivered again to the worker meeting it (it stalled past
 * the ack wait) is a copy, answered as the run it waits for is (`createJobCopies`), not a second run.
 */
export function createNatsTimerQueue(
  resources: () => Promise<{
    requests: JetStreamRequests;
    client: JetStreamClient;
    manager: JetStreamManager;
    names: NatsNames;
  }>,
  ackWaitMs: number,
  retry: RetryOptions,
  keys: () => CheckpointKeys | undefined,
  onError: (error: unknown, context: string) => void,
): TimerQueue {
  return {
    async schedule(unsigned) {
      const { requests, names } = await resources();
      const timer = signTimer(unsigned, keys());
      const headers = createHeaders();
      headers.set(MSG_ID_HEADER, timerMessageId(timer));
      const subject = names.timerSubject(timer.agent, timer.generation_id);
      await retryTransient(() => requests.publish(subject, encodeJson(timer), headers), retry);
    },

    async consume(handler, options) {
      // One durable consumer per agent, shared by every worker serving it: a worker takes only
      // the deadlines of agents it can resume.
      // (A work-queue stream takes no two consumers whose filters overlap, so there is no
      // consumer of every agent's timers beside them.)
      const names = [...new Set(options?.agents ?? [])];
      const loops = await Promise.all(names.map((agent) => consumeAgent(agent, handler)));
      return {
        async stop() {
          await Promise.all(loops.map((loop) => loop.stop()));
        },
      };
    },
  };

  /** The agent's durable consumer, made, or updated when it has another ack wait. */
  async function ensureTimerConsumer(manager: JetStreamManager, names: NatsNames, agent: string): Promise<void> {
    const durable = names.timerConsumerName(agent);
    const stream = names.timersStream;
    const wanted = { ack_wait: nanos(ackWaitMs), max_deliver: -1 };
    try {
      const info = await manager.consumers.info(stream, durable);
      if (info.config.ack_wait !== wanted.ack_wait) await manager.consumers.update(stream, durable, wanted);
    } catch (error) {
      if (!(error instanceof Error) || error.name !== 'ConsumerNotFoundError') throw error;
      await manager.consumers.add(stream, {
        durable_name: durable,
        filter_subject: `${names.timersSubjectRoot}.${agent}.*`,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        // Timers put back until due stay outstanding: room for many.
        max_ack_pending: 100_000,
        ...wanted,
      });
    }
  }

  async function consumeAgent(agent: string, handler: TimerHandler) {
    const { client, manager, names } = await resources();
    const durable = names.timerConsumerName(agent);
    await retryTransient(() => ensureTimerConsumer(manager, names, agent), retry);
    const consumer = await client.consumers.get(names.timersStream, durable);
    const messages = await consumer.consume({ max_messages: 100 });
    const inFlight = new Set<Promise<void>>();
    const copies = createJobCopies((copy) => copy.ack());
    const running = (async () => {
      for await (const message of messages) {
        let timer: InputTimer;
        try {
          timer = decodeJson<InputTimer>(message.data);
        } catch (error) {
          onError(error, 'a timer that is not JSON (dropped)');
          message.term();
          continue;
        }
        const refusal: TrustError | undefined = timerRefusal(timer, keys());
        if (refusal !== undefined) {
          onError(refusal, 'timer not trusted (dropped)');
          message.term();
          continue;
        }
        const left = Date.parse(timer.due_at) - Date.now();
        if (left > 0) {
          message.nak(Math.min(left, LONGEST_WAIT_MS));
          continue;
        }
        const identity = storedMessage(message);
        if (copies.wasAcknowledged(identity)) {
          message.ack();
          continue;
        }
        // Met beside the others (a deadline's resume runs a whole turn of a generation), the timer
        // kept by heartbeats while it runs, as a job is, so no other worker is handed it meanwhile.
        // One this process is meeting already came again (it stalled past the ack wait, or its
        // connection dropped): the copy waits for that run, and is answered as it is.
        const held = holdJob(message, identity, ackWaitMs);
        if (copies.keepIfCopy(held)) continue;
        const meeting = handler(timer)
          .then(
            (verdict): Answer => {
              // Abandoned: a later delivery took the run over and holds the timer; JetStream takes
              // an earlier delivery's ack for the message's, so acking here would settle the timer
              // under that run.
              if (verdict?.verdict === 'abandon') return { acknowledged: false, abandoned: true };
              message.ack();
              return { acknowledged: true };
            },
            (error: unknown): Answer => {
              onError(error, `meeting the deadline of ${timer.generation_id}`);
              handBack(message, RETRY_DELAY_MS);
              return { acknowledged: false, backoffMs: RETRY_DELAY_MS };
            },
          )
          .then((answer) => copies.settle(held, answer))
          .finally(() => {
            clearInterval(held.heartbeat);
            inFlight.delete(meeting);
          });
        inFlight.add(meeting);
      }
    })();
    return {
      async stop() {
        await messages.close();
        await running.catch(() => undefined);
        await Promise.all(inFlight);
      },
    };
  }
}
