import { createServer, type Socket, connect as tcpConnect } from 'node:net';

/** A TCP proxy in front of a NATS server whose connections a test can cut, as a flaky network would. */
export interface CuttableProxy {
  /** `nats://` URL of the proxy. */
  url: string;
  /** Drops every open connection; clients reconnect through the proxy while the server runs on. */
  cut(): void;
  /**
   * The next client write holding `text` reaches the server, and its connection is cut as soon as
   * the server answers, before the answer reaches the client: a publish stored, its ack lost.
   */
  cutAfterNextWrite(text: string): void;
  /** Connections accepted so far: one more after a client reconnected. */
  accepted(): number;
  close(): Promise<void>;
}

export async function startCuttableProxy(serverUrl: string): Promise<CuttableProxy> {
  const target = new URL(serverUrl);
  const sockets = new Set<Socket>();
  let accepted = 0;
  let trigger: string | undefined;
  const server = createServer((client) => {
    accepted += 1;
    const upstream = tcpConnect(Number(target.port), target.hostname);
    const drop = () => {
      for (const socket of [client, upstream]) {
        socket.destroy();
        sockets.delete(socket);
      }
    };
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', drop);
      socket.on('close', drop);
    }
    client.on('data', (chunk: Buffer) => {
      if (trigger !== undefined && chunk.includes(trigger)) {
        trigger = undefined;
        upstream.unpipe(client);
        upstream.once('data', () => cut());
        upstream.resume(); // unpipe paused it: the answer must still arrive, to be dropped
      }
      upstream.write(chunk);
    });
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const cut = () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  return {
    url: `nats://127.0.0.1:${port}`,
    cut,
    cutAfterNextWrite: (text) => {
      trigger = text;
    },
    accepted: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}
