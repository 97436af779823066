import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { startPrivatePostgres } from './private-postgres.js';

async function dataDirectoryOf(connectionString: string): Promise<string> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const result = await client.query<{ data_directory: string }>('SHOW data_directory');
    return result.rows[0]?.data_directory ?? '';
  } finally {
    await client.end();
  }
}

async function refusesConnections(connectionString: string): Promise<boolean> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return false;
  } catch {
    return true;
  }
}

describe('the PostgreSQL the tests use', () => {
  it('is INTERLUDE_POSTGRES_URL when set, otherwise a cluster of this run in a temporary folder', async () => {
    const configured = process.env['INTERLUDE_POSTGRES_URL'];
    if (configured) {
      expect(inject('postgresUrl')).toBe(configured);
      return;
    }
    const url = new URL(inject('postgresUrl'));
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.port).not.toBe('5432');
    expect(await dataDirectoryOf(inject('postgresUrl'))).toMatch(
      new RegExp(`^${join(tmpdir(), 'interlude-postgres-')}`),
    );
  });

  it('starts on a free port, and stop() ends it and removes its folder', async () => {
    const server = await startPrivatePostgres();
    const dataDirectory = await dataDirectoryOf(server.url);
    expect(existsSync(dataDirectory)).toBe(true);
    await server.stop();
    expect(await refusesConnections(server.url)).toBe(true);
    expect(existsSync(dataDirectory)).toBe(false);
  });

  it('goes away with the process that started it, even when that process is killed', async () => {
    const script = `import { startPrivatePostgres } from ${JSON.stringify(join(import.meta.dirname, 'private-postgres.ts'))};
const server = await startPrivatePostgres();
console.log(server.url);
setInterval(() => {}, 60_000);`;
    const owner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      owner.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const line = /^(postgres:\/\/\S+)$/m.exec(output);
        if (line?.[1] !== undefined) resolve(line[1]);
      });
      owner.once('exit', (code) => reject(new Error(`the owner exited early with code ${code}`)));
    });
    const dataDirectory = await dataDirectoryOf(url);
    owner.kill('SIGKILL');
    let gone = false;
    for (let attempt = 0; attempt < 100 && !gone; attempt++) {
      await sleep(200);
      gone = (await refusesConnections(url)) && !existsSync(dataDirectory);
    }
    expect(gone).toBe(true);
  });
});
