import type { IncomingMessage } from 'node:http';
import { HttpError } from './http-helpers.js';

/**
 * The `Host` values the desk answers to: the address it listens on, its loopback names, and any
 * listed in `DEMO_ALLOWED_HOSTS` (comma-separated `host:port`, for a desk served under another name).
 */
export function allowedHosts(host: string, port: number, extra: readonly string[] = []): Set<string> {
  const names = new Set([host, 'localhost', '127.0.0.1', '[::1]']);
  return new Set([...[...names].map((name) => `${name}:${port}`), ...extra.map((entry) => entry.toLowerCase())]);
}

/**
 * Refuses, before any route runs, a request the page did not send itself:
 * - a foreign `Host` (403): a page on another site that points its own name at this address (DNS
 *   rebinding) would otherwise be same-origin with the desk;
 * - a foreign `Origin` (403): another site's page posting a form or a `no-cors` fetch;
 * - a POST that is not `content-type: application/json` (415): a cross-site page can send
 *   `text/plain` or form bodies without asking, but JSON only after a CORS preflight the desk never
 *   grants.
 * The terminal client sends no `Origin` and a loopback `Host`, and JSON like the page.
 */
export function guardRequest(request: IncomingMessage, hosts: ReadonlySet<string>): void {
  const host = (request.headers.host ?? '').toLowerCase();
  if (!hosts.has(host)) throw new HttpError(403, 'This desk does not answer to that Host');
  const origin = request.headers.origin;
  // `Origin: null` (a sandboxed frame, a file) is no origin of ours either.
  if (origin !== undefined && !isOwnOrigin(origin, hosts)) {
    throw new HttpError(403, 'Requests from other origins are refused');
  }
  if (request.method === 'POST') {
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') throw new HttpError(415, 'Send the request as content-type: application/json');
  }
}

function isOwnOrigin(origin: string, hosts: ReadonlySet<string>): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && hosts.has(url.host.toLowerCase());
  } catch {
    return false;
  }
}
