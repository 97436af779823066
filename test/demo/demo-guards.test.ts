import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoProcess, startDemo } from './support/demo-process.js';

let demo: DemoProcess;
beforeAll(async () => {
  demo = await startDemo();
});
afterAll(async () => {
  await demo?.stop();
});

/** A raw HTTP request, so the test can set what a browser or an attacker would: Host, Origin, content-type. */
function send(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<{ status: number; body: string }> {
  const url = new URL(path, demo.url);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: url.hostname, port: url.port, method, path: url.pathname, headers: { host: url.host, ...headers } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    outgoing.once('error', reject);
    outgoing.end(body);
  });
}

const json = { 'content-type': 'application/json' };

async function generations(): Promise<{ generationId: string; status: string; ticketId: number }[]> {
  return JSON.parse((await send('GET', '/api/generations')).body);
}

describe('the demo refuses what its own page would not send', () => {
  it('a cross-origin text/plain form or a no-cors fetch cannot start a run or approve a refund; a foreign Host gets nothing', async () => {
    // What another site's page can send without a preflight: a text/plain form, a bodyless POST.
    expect(
      (await send('POST', '/api/tickets/101/run', { 'content-type': 'text/plain', origin: 'http://attacker.example' }))
        .status,
    ).toBe(403);
    expect((await send('POST', '/api/tickets/101/run', { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await send('POST', '/api/tickets/101/run')).status).toBe(415);
    expect(await generations()).toEqual([]);

    const started = await send('POST', '/api/tickets/101/run', json);
    expect(started.status).toBe(202);
    const { generationId } = JSON.parse(started.body) as { generationId: string };
    await expect
      .poll(async () => (await generations()).find((entry) => entry.generationId === generationId)?.status, {
        timeout: 15_000,
      })
      .toBe('awaiting_input');
    const pending = JSON.parse((await send('GET', '/api/pending')).body) as {
      toolCallId: string;
      answerToken: string;
    }[];
    const toolCallId = pending[0]?.toolCallId as string;
    const authorization = `Bearer ${pending[0]?.answerToken}`;
    const approval = JSON.stringify({ answers: { [toolCallId]: true } });

    const forms: Record<string, string>[] = [
      { 'content-type': 'text/plain', origin: 'http://attacker.example' },
      { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://attacker.example' },
      { 'content-type': 'application/json', origin: 'http://attacker.example' },
      { 'content-type': 'application/json', origin: 'null' },
      { 'content-type': 'text/plain' },
    ];
    for (const headers of forms) {
      const answered = await send(
        'POST',
        `/v1/generations/${generationId}/answers`,
        { ...headers, authorization },
        approval,
      );
      expect([403, 415]).toContain(answered.status);
    }
    expect((await send('GET', '/api/pending', { host: 'attacker.example' })).status).toBe(403);
    expect((await send('GET', '/', { host: 'attacker.example:80' })).status).toBe(403);
    expect((await generations()).find((entry) => entry.generationId === generationId)?.status).toBe('awaiting_input');

    // The page itself (its own Origin, JSON) still answers.
    const own = await send(
      'POST',
      `/v1/generations/${generationId}/answers`,
      { ...json, origin: demo.url, authorization },
      approval,
    );
    expect(own.status).toBe(202);
  }, 60_000);

  it('keeps at most 3 open runs per ticket: the 4th waits for an answer (429)', async () => {
    const statuses: number[] = [];
    for (let run = 0; run < 5; run += 1) statuses.push((await send('POST', '/api/tickets/102/run', json)).status);
    expect(statuses).toEqual([202, 202, 202, 429, 429]);
  });
});
