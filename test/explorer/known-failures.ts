/**
 * The invariant violations the explorer expects today, one row per row of issue 27's table. A
 * violation is attributed to a row by what its schedule did to that generation (see
 * `attributeRow`); one no row explains is `unclassified` and always fails. A row marked
 * `expected: true` is tolerated (reported, not failed); once the fix for it is on main, set it to
 * `false` and the explorer fails on any violation of it again. Flipped so far: the deadline and the
 * stalled-holder rows (a lapsed holder writes nothing; a timer whose expiry run died is taken
 * over), the pending-list and wrong-subject rows (`pending()` lists from verified checkpoints;
 * events read off another generation's subject are dropped), the two-runtimes row (memory
 * buses given one key share the process's claim log for it), and the unsigned-claims row (claim
 * records are signed, and a forged one holds no slot).
 */
export const KNOWN_FAILURES = {
  /** A deadline met by a worker SIGKILLed inside the tool body: the redelivered timer is acknowledged and dropped. */
  'deadline-timer-dropped': { expected: false, invariants: [2] },
  /** A SIGSTOPped holder, continued after the takeover asked the outcome-unknown question, writes on; the call runs twice. */
  'stalled-holder-writes': { expected: false, invariants: [1, 2, 3] },
  /** Two runtimes in one process, on buses of their own, both accept one checkpoint: the body runs twice. */
  'two-runtimes-one-process': { expected: false, invariants: [1] },
  /** `pending()` lists a first pause (claim slot 0) while its answer is running. */
  'pending-lists-answer-in-flight': { expected: false, invariants: [3] },
  /** A keyless client's pending-index record is listed: a relabelled question, a generation that never existed. */
  'keyless-pending-record': { expected: false, invariants: [3, 5] },
  /** A signed event of one generation republished on another's subject is read as the other's (its log then reads as ended while it waits). */
  'event-on-wrong-subject': { expected: false, invariants: [2, 3, 4] },
  /** A keyless client's claim record marks a pause claimed: it is no longer listed and every answer is refused. */
  'unsigned-claims': { expected: false, invariants: [2, 3, 5] },
  /** (audit) A keyless client rewrites a pending record's audience, agent and action, or deletes it: the waiting question vanishes from `pending()`. */
  'keyless-pending-hides': { expected: false, invariants: [2, 3] },
  /** (audit) A keyless client publishes a timer first under `<generation>:<slot>`: the real one is dropped as a duplicate and the pause never expires. */
  'keyless-timer-preempts': { expected: false, invariants: [2] },
} as const satisfies Record<string, { expected: boolean; invariants: readonly Invariant[] }>;

/** (1) at most once per approval, (2) ends or waits answerably, (3) pending lists only what waits, (4) logs hold their own events, (5) forgeries change nothing. */
export type Invariant = 1 | 2 | 3 | 4 | 5;

export type KnownRow = keyof typeof KNOWN_FAILURES;
export type Row = KnownRow | 'unclassified';

export function isTolerated(row: Row): boolean {
  return row !== 'unclassified' && KNOWN_FAILURES[row].expected;
}

/**
 * The row a violation of `invariant` belongs to: the first of the faults applied to the generation
 * (`causes`, in the order they were applied) whose row can break that invariant, else the row the
 * detector names, else `unclassified`.
 */
export function attributeRow(invariant: Invariant, causes: Iterable<KnownRow>, detected?: KnownRow): Row {
  for (const cause of causes) {
    if ((KNOWN_FAILURES[cause].invariants as readonly Invariant[]).includes(invariant)) return cause;
  }
  return detected ?? 'unclassified';
}
