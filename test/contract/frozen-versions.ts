// The frozen message schemas of each major version of the wire contract: written once per message
// (by write-asyncapi.ts, never over an existing file), then only read by contract-versions.test.ts.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { messageSchema, type SchemaDocument } from './schema-compatibility.js';

export const VERSIONS_DIRECTORY = new URL('./versions/', import.meta.url);

/** The major part of a contract version (`1.2.0` → `1`). */
export function majorOf(version: string): string {
  return version.split('.')[0] as string;
}

/** The message names of a document: `components.messages`' keys, each naming its payload schema. */
export function messageNames(document: Record<string, unknown>): string[] {
  return Object.keys((document['components'] as { messages: Record<string, unknown> }).messages);
}

/** Every frozen major version, and its messages' schemas by name. */
export function frozenVersions(): Map<string, Map<string, SchemaDocument>> {
  const versions = new Map<string, Map<string, SchemaDocument>>();
  if (!existsSync(VERSIONS_DIRECTORY)) return versions;
  for (const major of readdirSync(VERSIONS_DIRECTORY)) {
    const directory = new URL(`${major}/`, VERSIONS_DIRECTORY);
    const messages = new Map<string, SchemaDocument>();
    for (const file of readdirSync(directory).filter((name) => name.endsWith('.json'))) {
      messages.set(file.slice(0, -'.json'.length), JSON.parse(readFileSync(new URL(file, directory), 'utf8')));
    }
    versions.set(major, messages);
  }
  return versions;
}

/** Freezes each message of `document` not yet frozen under its major version; returns the files written. */
export function freezeNewMessages(document: Record<string, unknown>, version: string): string[] {
  const directory = new URL(`${majorOf(version)}/`, VERSIONS_DIRECTORY);
  mkdirSync(directory, { recursive: true });
  const written: string[] = [];
  for (const name of messageNames(document)) {
    const file = new URL(`${name}.json`, directory);
    if (existsSync(file)) continue;
    const schema = messageSchema(document as never, name);
    writeFileSync(file, `${JSON.stringify(schema, null, 2)}\n`);
    written.push(file.pathname);
  }
  return written;
}
