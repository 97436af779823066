import { InterludeError } from '@interlude/core';

const marker = Symbol.for('interlude.error.events-expired');

/**
 * `bus.events(id)` found only the end of a generation's log: its first events (the `started`
 * of its first run) are gone, removed by the event log's age or size limit
 * (`eventMaxAgeMs`, `eventMaxBytes`). What is left is not a history anything could rebuild from,
 * so it is not returned as one.
 */
export class EventsExpiredError extends InterludeError {
  readonly [marker] = true;
  declare readonly code: 'events_expired';
  readonly generationId: string;

  constructor(generationId: string, kept: number) {
    super(
      'events_expired',
      `The event log of generation ${generationId} has expired: its start is gone (the log's age or size limit removed it); ${kept} later events are left`,
    );
    this.name = 'EventsExpiredError';
    this.generationId = generationId;
  }

  static override isInstance(error: unknown): error is EventsExpiredError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}
