import { InterludeError } from '@interlude/core';

const marker = Symbol.for('interlude.error.stream-config');

/** One setting of a stream (or of the checkpoint bucket's stream) that is not what the bus asks for. */
export interface StreamDifference {
  stream: string;
  /** The JetStream setting: `num_replicas`, `max_age`, `max_bytes`, `retention`, … */
  setting: string;
  stored: unknown;
  wanted: unknown;
}

/**
 * A stream or the checkpoint bucket already exists with settings other than the bus's options ask
 * for (made by an earlier release, by hand, or by a process with other options). The bus does not
 * silently run on settings it was not given: it names each difference. `updateStreams: true`
 * applies the options to the existing streams, where JetStream allows it.
 */
export class StreamConfigError extends InterludeError {
  readonly [marker] = true;
  declare readonly code: 'stream_config_mismatch';
  readonly differences: readonly StreamDifference[];

  constructor(differences: readonly StreamDifference[], hint: string) {
    const listed = differences
      .map(
        ({ stream, setting, stored, wanted }) =>
          `${stream}.${setting} is ${show(setting, stored)}, wanted ${show(setting, wanted)}`,
      )
      .join('; ');
    super('stream_config_mismatch', `natsBus found streams set up otherwise: ${listed}. ${hint}`);
    this.name = 'StreamConfigError';
    this.differences = differences;
  }

  static override isInstance(error: unknown): error is StreamConfigError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

/** JetStream's durations (`max_age`, `duplicate_window`) are nanoseconds; shown as milliseconds. */
const DURATIONS = new Set(['max_age', 'duplicate_window']);

function show(setting: string, value: unknown): string {
  if (value === undefined) return 'unset';
  if (DURATIONS.has(setting) && typeof value === 'number') return value === 0 ? '0 (forever)' : `${value / 1e6} ms`;
  return JSON.stringify(value);
}
