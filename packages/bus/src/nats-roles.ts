import { readFileSync } from 'node:fs';
import { natsNames } from './subjects.js';

/** The roles file as shipped (`@interlude/bus/nats/interlude-roles.conf`): the default names. */
const ROLES_FILE = new URL('../nats/interlude-roles.conf', import.meta.url);

/**
 * The nats-server roles file (application, worker, observer) for a deployment under `prefix`: the
 * shipped file with every subject, stream, bucket and consumer grant moved under the prefix's
 * names (`natsNames(prefix)`), and its users, role variables and password variables named after
 * the prefix too (`acme-interlude-worker`, `$ACME_INTERLUDE_WORKER_PASSWORD`), so the roles of
 * several deployments can sit in one server's `authorization` block. Without a prefix it is the
 * shipped file. `interlude-worker --nats-roles` prints it for `INTERLUDE_PREFIX`.
 *
 * @example
 *   writeFileSync('interlude-roles.conf', natsRoles('billing'));
 */
export function natsRoles(prefix?: string): string {
  const names = natsNames(prefix); // refuses a bad prefix (invalid_prefix) before anything is made
  const text = readFileSync(ROLES_FILE, 'utf8');
  if (names.prefix === undefined) return text;
  const variable = `${names.prefix.toUpperCase().replaceAll('-', '_')}_INTERLUDE_`;
  return [
    `# natsRoles('${names.prefix}'): the roles of the deployment under the prefix ${names.prefix}.`,
    text
      .replaceAll('"interlude.', `"${names.prefix}.interlude.`)
      .replaceAll('$KV.interlude_', `$KV.${names.prefix}_interlude_`)
      .replaceAll('KV_interlude_', `KV_${names.prefix}_interlude_`)
      .replace(/\bINTERLUDE_(EVENTS|JOBS|CLAIMS|DEAD|TIMERS)\b/g, `${names.prefix}_INTERLUDE_$1`)
      .replace(/\$?\bINTERLUDE_(APPLICATION|WORKER|OBSERVER)(_PASSWORD)?\b/g, (found) =>
        found.replace('INTERLUDE_', variable),
      )
      .replace(/user: interlude-/g, `user: ${names.prefix}-interlude-`),
  ].join('\n');
}
