import type { GenerationEvent } from '@interlude/core';
import type { MsgHdrs } from '@nats-io/transport-node';
import { PayloadCodecError } from './codec/payload-codec-error.js';
import type { PayloadSealer } from './codec/payload-sealer.js';
import { openEvent } from './codec/sealed-records.js';
import { eventRefusal, misplacedEvent } from './event-signature.js';
import { decodeJson } from './json-codec.js';
import type { EventTrust } from './nats-event-log.js';
import type { NatsNames } from './subjects.js';

/**
 * A live event as a reader may believe it, or undefined (and reported through `trust`): one not
 * signed with the bus's keys, sealed so that the bus cannot open it, or whose body is not its
 * subject's, never reaches a handler. Shared by subscriptions and followers of the log.
 */
export function trustedEvent(
  message: { data: Uint8Array; headers?: MsgHdrs | undefined; subject: string },
  names: NatsNames,
  trust: EventTrust,
  sealer: PayloadSealer,
): GenerationEvent | undefined {
  const refusal = eventRefusal(message.data, message.headers, trust.keys(), message.subject);
  if (refusal !== undefined) {
    trust.onRefused(refusal);
    return undefined;
  }
  let event: GenerationEvent;
  try {
    event = openEvent(sealer, decodeJson<GenerationEvent>(message.data));
  } catch (error) {
    if (!PayloadCodecError.isInstance(error)) throw error;
    trust.onUnreadable(error, message.subject);
    return undefined;
  }
  const misplaced = misplacedEvent(event, message.subject, names);
  if (misplaced !== undefined) {
    trust.onRefused(misplaced);
    return undefined;
  }
  return event;
}
