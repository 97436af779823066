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

// Checked by `tsc` (the typecheck every landing runs): a field added to a record's type and not
// to its schema, or typed otherwise, fails here, so the published contract cannot fall behind.
// Each type must be one its schema accepts, with the same top-level fields.
type Described<Type, Schema extends z.ZodType> = [Type] extends [z.output<Schema>]
  ? [Exclude<keyof Type, keyof z.output<Schema>>, Exclude<keyof z.output<Schema>, keyof Type>] extends [never, never]
    ? true
    : { fieldsDiffer: [Exclude<keyof Type, keyof z.output<Schema>>, Exclude<keyof z.output<Schema>, keyof Type>] }
  : { notAccepted: Type };

describe('the contract schemas describe the types the code writes', () => {
  it('records', () => {
    expectTypeOf<Described<Job, typeof jobSchema>>().toEqualTypeOf<true>();
    expectTypeOf<Described<PendingRecord, typeof pendingRecordSchema>>().toEqualTypeOf<true>();
    expectTypeOf<Described<ClaimRecord, typeof claimRecordSchema>>().toEqualTypeOf<true>();
    expectTypeOf<Described<InputTimer, typeof inputTimerSchema>>().toEqualTypeOf<true>();
    expectTypeOf<Described<DeadLetter, typeof deadLetterSchema>>().toEqualTypeOf<true>();
    expectTypeOf<Described<AskedInputRequestJSON, typeof inputRequestSchema>>().toEqualTypeOf<true>();
    expectTypeOf<z.output<typeof inputRequestSchema>>().toExtend<AskedInputRequestJSON>();
    expectTypeOf<Described<Checkpoint, typeof checkpointSchema>>().toEqualTypeOf<true>();
  });

  it('events and their data', () => {
    type EachData = { [Name in EventName]: Described<EventData[Name], (typeof eventDataSchemas)[Name]> };
    expectTypeOf<EachData[EventName]>().toEqualTypeOf<true>();
    type EachEvent = {
      [Name in EventName]: Described<Extract<GenerationEvent, { event: Name }>, (typeof eventSchemas)[Name]>;
    };
    expectTypeOf<EachEvent[EventName]>().toEqualTypeOf<true>();
    expectTypeOf<keyof typeof eventDataSchemas>().toEqualTypeOf<EventName>();
  });
});
