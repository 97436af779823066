import type { JsMsg } from '@nats-io/jetstream';
import type { JetStreamRequests } from './jetstream-requests.js';
import { type RetryOptions, retryTransient } from './retry.js';

/** A delivered job with the heartbeat that keeps it from being delivered again meanwhile. */
export interface Held {
  message: JsMsg;
  heartbeat: NodeJS.Timeout;
  /** Which stored message it is (`storedMessage`), to tell its copies. */
  identity: string;
  /** Handed back when a stop reached its bound: whatever its handler does later is not answered. */
  handedBack?: boolean;
}

/**
 * How a job was answered: acknowledged, handed back (after `backoffMs`, or at once), left to the
 * delivery that took it over, or handed back earlier by a stop that reached its bound (then
 * neither it nor its copies are answered again).
 */
export type Answer =
  | { acknowledged: true }
  | { acknowledged: false; backoffMs?: number }
  | { acknowledged: false; abandoned: true }
  | { acknowledged: false; handedBack: true };

/**
 * Which stored message a delivery is: its stream sequence and the time it was stored, the same
 * in every delivery of it (the time tells a sequence reused by a stream made anew).
 */
export function storedMessage(message: JsMsg): string {
  return `${message.seq}@${message.timestampNanos}`;
}

/** Holds a delivered job: tells the server every third of the ack wait that it is still being worked on. */
export function holdJob(message: JsMsg, identity: string, ackWaitMs: number): Held {
  const heartbeat = setInterval(
    () => {
      try {
        message.working();
      } catch {
        // The connection is closing: without heartbeats the job is redelivered, which is the point.
      }
    },
    Math.max(100, ackWaitMs / 3),
  );
  heartbeat.unref(); // the job's own work keeps the process alive, not its heartbeat
  return { message, heartbeat, identity };
}

/** Hands a job back for another delivery, after `delayMs` or at once. */
export function handBack(message: JsMsg, delayMs?: number): void {
  try {
    message.nak(delayMs);
  } catch {
    // Closed connection: the ack wait runs out and the job is redelivered anyway.
  }
}

const ACK = new TextEncoder().encode('+ACK');

/**
 * Acknowledges a job and resolves once the server confirms it took the job off the queue. A lost
 * confirmation (the server went away, or restarts) is sent again until the server answers:
 * otherwise the finished job would be delivered and run again once the ack wait ran out.
 * `JsMsg.ackAck()` sends once (called again, it resolves `false` without sending), so the ack
 * goes through the bus's request path instead. Acking a job twice is harmless.
 */
export async function acknowledgeJob(requests: JetStreamRequests, message: JsMsg, retry: RetryOptions): Promise<void> {
  // The ack subject: nats.js's JsMsg has it (`reply`), though its type does not show it.
  const ackSubject = (message as JsMsg & { reply: string }).reply;
  await retryTransient(() => requests.request(ackSubject, ACK), retry);
}
