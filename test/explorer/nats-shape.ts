import type { ScheduleShape } from './schedule.js';

/** The NATS explorer's schedules: fewer generations, and the process and server faults. */
export const NATS_SHAPE: ScheduleShape = {
  generations: 3,
  steps: 8,
  weights: {
    answer: 3,
    'answer-later': 4,
    'answer-elsewhere': 1,
    cancel: 1,
    advance: 1,
    'forge-pending': 1,
    'forge-phantom': 0.3,
    'forge-claim': 1,
    'forge-event': 1,
    peek: 2,
    settle: 1,
    'stall-worker': 2,
    'kill-worker': 1,
    'restart-server': 0.3,
  },
  deadlines: [1_200, 2_500],
  // Expiring questions, most of the harmless ones approving on expiry: the deadline row's worker
  // then runs the body it approved, where a kill lands.
  expiring: 0.6,
  approvingOnExpiry: 0.8,
};
