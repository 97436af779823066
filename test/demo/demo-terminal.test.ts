import { afterEach, describe, expect, it } from 'vitest';
import { EVENTUALLY } from './support/demo-browser.js';
import { runCli, startDemo } from './support/demo-process.js';
import { startInTerminal, type TerminalSession } from './support/terminal-session.js';

/** What pnpm prints after a script that failed or was killed: the noise a person should not see. */
const PNPM_FAILURE = /ELIFECYCLE|ERR_PNPM|Command failed/;

const sessions: TerminalSession[] = [];
afterEach(() => {
  for (const session of sessions.splice(0)) session.kill();
});
const typed = (command: string, environment: Record<string, string> = {}) => {
  const session = startInTerminal(command, environment);
  sessions.push(session);
  return session;
};

describe('the demo in a terminal, typed as its README says', () => {
  it('Ctrl-C stops `pnpm demo`: the page closes, the exit code is 0, pnpm reports no failure', async () => {
    const demo = typed('pnpm demo', { PORT: '0' });
    await expect.poll(() => /Open (http:\/\/\S+)/.exec(demo.output())?.[1], { timeout: 30_000 }).toBeDefined();
    const url = /Open (http:\/\/\S+)/.exec(demo.output())?.[1] as string;
    expect((await fetch(`${url}/api/tickets`)).status).toBe(200);

    demo.pressCtrlC();
    expect(await demo.exited, demo.output()).toBe(0);
    expect(demo.output()).not.toMatch(PNPM_FAILURE);
    await expect(fetch(`${url}/api/tickets`)).rejects.toThrow();
  }, 60_000);

  it('Ctrl-C stops `cli tail` the way it says it does: exit code 0, no failure report', async () => {
    const server = await startDemo();
    try {
      const tail = typed('pnpm --filter @interlude/demo cli tail', { DEMO_URL: server.url });
      await expect.poll(() => tail.output(), EVENTUALLY).toContain('Following input_requested events');
      tail.pressCtrlC();
      expect(await tail.exited, tail.output()).toBe(0);
      expect(tail.output()).not.toMatch(PNPM_FAILURE);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('a usage error prints the usage and no failure report through pnpm, and exits 2 when run directly', async () => {
    for (const command of ['cli bogus', 'cli answer gen_only', 'cli']) {
      const session = typed(`pnpm --filter @interlude/demo ${command}`);
      expect(await session.exited, command).toBe(0);
      expect(session.output(), command).toContain('usage: cli pending | answer <generation> <call>');
      expect(session.output(), command).not.toMatch(PNPM_FAILURE);
    }
    const direct = runCli('http://127.0.0.1:9', ['answer', 'gen_only']);
    await expect(direct).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('answer: wrong number') });
    expect(await runCli('http://127.0.0.1:9', ['help'])).toContain('usage: cli pending');
  }, 60_000);
});
