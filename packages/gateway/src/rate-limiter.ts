/** How many requests one credential may make per window. */
export interface RateLimit {
  requests: number;
  windowMs: number;
}

/**
 * A fixed-window counter per credential, in this process: enough to stop one key (or one answer
 * token) from flooding the bus; a deployment with several gateways sets each one's share.
 */
export function createRateLimiter(limit: RateLimit, now: () => number = Date.now) {
  let windowStart = now();
  let counts = new Map<string, number>();
  return {
    /** Counts one request of `bucket`; the seconds to wait when it is over the limit. */
    take(bucket: string): { allowed: true } | { allowed: false; retryAfterSeconds: number } {
      const time = now();
      if (time - windowStart >= limit.windowMs) {
        windowStart = time - ((time - windowStart) % limit.windowMs);
        counts = new Map();
      }
      const count = (counts.get(bucket) ?? 0) + 1;
      counts.set(bucket, count);
      if (count <= limit.requests) return { allowed: true };
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((windowStart + limit.windowMs - time) / 1000)),
      };
    },
  };
}
