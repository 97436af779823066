import { readFileSync } from 'node:fs';

/** Recorded wire payloads of one adapter, read from its `__fixtures__` folder. */
export interface Fixtures {
  /** `<name>.json`: one response body, parsed. */
  json<T = unknown>(name: string): T;
  /** `<name>.chunks.txt`: one streamed event per line, as JSON; blank lines are skipped. */
  chunks(name: string): unknown[];
}

/**
 * Reads fixtures beside the tests that replay them, so a payload recorded from the real API can be
 * dropped in as a file and served by the wire server as JSON or SSE without touching test code.
 *
 * @example
 * ```ts
 * const fixtures = loadFixtures(new URL('./__fixtures__/', import.meta.url));
 * server.enqueue('/v1/messages', { json: fixtures.json('refund-tool-use') });
 * server.enqueue('/v1/messages', { sse: fixtures.chunks('refund-tool-use'), namedEvents: true });
 * ```
 */
export function loadFixtures(directory: URL): Fixtures {
  const read = (file: string): string => readFileSync(new URL(file, directory), 'utf8');
  return {
    json<T>(name: string): T {
      return JSON.parse(read(`${name}.json`)) as T;
    },
    chunks(name: string): unknown[] {
      return read(`${name}.chunks.txt`)
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line, index) => {
          try {
            return JSON.parse(line) as unknown;
          } catch (error) {
            throw new Error(`${name}.chunks.txt line ${index + 1} is not JSON`, { cause: error });
          }
        });
    },
  };
}
