import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { ClaimRecord, DeadLetter, InputTimer, Job, PendingRecord } from '../bus/bus.js';
import type { EventData, EventName, GenerationEvent } from '../bus/events.js';
import type { Checkpoint } from '../checkpoint/checkpoint.js';
import type { AskedInputRequestJSON } from '../input-request/input-request.js';
import type { checkpointSchema } from './checkpoint-schema.js';
import type { eventDataSchemas, eventSchemas } from './event-schemas.js';
import type { inputRequestSchema } from './question-schema.js';
import type {
  claimRecordSchema,
  deadLetterSchema,
  inputTimerSchema,
  jobSchema,
  pendingRecordSchema,
} from './record-schemas.js';
import type { sealedPayloadSchema } from './sealed-payload-schema.js';

// Checked by `tsc` (the typecheck every landing runs): a field added to a record's type and not
// to its schema, or typed otherwise, fails here, so the published contract cannot fall behind.
// Each type must be one its schema accepts, with the same top-level fields.
type Described<Type, Schema extends z.ZodType> = [Type] extends [z.output<Schema>]
  ? [Exclude<keyof Type, keyof z.output<Schema>>, Exclude<keyof z.output<Schema>, keyof Type>] extends [never, never]
    ? true
    : { fieldsDiffer: [Exclude<keyof Type, keyof z.output<Schema>>, Exclude<keyof z.output<Schema>, keyof Type>] }
  : { notAccepted: Type };

// And, for the records that hold no checkpoint, the other way too, at every depth: what the schema
// lets through (opened, once a codec sealed it) is the type, so a nested field typed otherwise on
// either side fails. (A checkpoint's type has every defaulted field set; as written, those are left out.)
type DescribedExactly<Type, Schema extends z.ZodType> =
  Described<Type, Schema> extends true
    ? [Opened<z.output<Schema>>] extends [Type]
      ? true
      : { schemaLetsThroughMore: Opened<z.output<Schema>> }
    : Described<Type, Schema>;

/** A schema's output as a reader sees it once the bus's codec opened it: no sealed alternative left. */
type Opened<Value> = Value extends SealedPayload
  ? never
  : Value extends readonly (infer Item)[]
    ? Opened<Item>[]
    : Value extends object
      ? { [Key in keyof Value]: Opened<Value[Key]> }
      : Value;
type SealedPayload = z.output<typeof sealedPayloadSchema>;

describe('the contract schemas describe the types the code writes', () => {
  it('records', () => {
    expectTypeOf<Described<Job, typeof jobSchema>>().toEqualTypeOf<true>();
    expectTypeOf<DescribedExactly<PendingRecord, typeof pendingRecordSchema>>().toEqualTypeOf<true>();
    expectTypeOf<Described<ClaimRecord, typeof claimRecordSchema>>().toEqualTypeOf<true>();
    expectTypeOf<DescribedExactly<InputTimer, typeof inputTimerSchema>>().toEqualTypeOf<true>();
    expectTypeOf<Described<DeadLetter, typeof deadLetterSchema>>().toEqualTypeOf<true>();
    expectTypeOf<DescribedExactly<AskedInputRequestJSON, typeof inputRequestSchema>>().toEqualTypeOf<true>();
    expectTypeOf<Described<Checkpoint, typeof checkpointSchema>>().toEqualTypeOf<true>();
  });

  it('events and their data', () => {
    type EachData = { [Name in EventName]: Described<EventData[Name], (typeof eventDataSchemas)[Name]> };
    expectTypeOf<EachData[EventName]>().toEqualTypeOf<true>();
    // Both ways for every event's data but a pause's, which holds its delegations' checkpoints.
    type Exactly = Exclude<EventName, 'input_requested'>;
    type EachDataExactly = { [Name in Exactly]: DescribedExactly<EventData[Name], (typeof eventDataSchemas)[Name]> };
    expectTypeOf<EachDataExactly[Exactly]>().toEqualTypeOf<true>();
    type EachEvent = {
      [Name in EventName]: Described<Extract<GenerationEvent, { event: Name }>, (typeof eventSchemas)[Name]>;
    };
    expectTypeOf<EachEvent[EventName]>().toEqualTypeOf<true>();
    expectTypeOf<keyof typeof eventDataSchemas>().toEqualTypeOf<EventName>();
  });
});
