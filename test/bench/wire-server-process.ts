import { type ChildScript, startBenchScript } from './child-script.js';

/** The refund wire server running in its own process, and the base URL the OpenAI SDK takes. */
export interface WireServerProcess {
  baseURL: string;
  stop(): Promise<void>;
}

export async function startWireServerProcess(): Promise<WireServerProcess> {
  const child: ChildScript = startBenchScript('refund-wire-server.ts');
  const line = await child.waitForLine(/^port \d+$/);
  return { baseURL: `http://127.0.0.1:${line.slice('port '.length)}/v1`, stop: () => child.stop() };
}
