import { readFile } from 'node:fs/promises';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import type { TlsOptions } from '@nats-io/transport-node';

/**
 * Asks one server, with the bus's own TLS options, whether it refuses us at the TLS layer. Under
 * TLS 1.3 a server that refuses the client's certificate (or gets none when it requires one)
 * says so only after the handshake completes on the client's side; nats.js then waits for an
 * answer that never comes and reports a bare timeout, which looks like a server that is merely
 * slow, so the bus would retry forever. Called once a first connect timed out: resolves with the
 * TLS error the server sent, or undefined when TLS is not what went wrong.
 */
export async function probeTlsRefusal(
  server: string,
  tls: TlsOptions | null | undefined,
  timeoutMs = 3_000,
): Promise<Error | undefined> {
  const { hostname, port } = hostPort(server);
  const material = await readMaterial(tls ?? {});
  return new Promise((resolve) => {
    let settled = false;
    const sockets: Socket[] = [];
    const finish = (result: Error | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      resolve(result);
    };
    // Neither the probe nor its timer keeps a process alive: the connect it races decides that.
    const timer = setTimeout(() => finish(undefined), timeoutMs).unref();
    const plain = netConnect(port, hostname);
    plain.unref();
    sockets.push(plain);
    plain.once('error', () => finish(undefined));
    let greeting = '';
    plain.on('data', (chunk: Buffer) => {
      greeting += chunk.toString('latin1');
      const end = greeting.indexOf('\r\n');
      if (end < 0) return;
      plain.removeAllListeners('data');
      const info = parseInfo(greeting.slice(0, end));
      if (info === undefined || !(info.tls_required === true || (info.tls_available === true && tls !== null))) {
        finish(undefined);
        return;
      }
      const secure = tlsConnect({
        socket: plain,
        ...(isIP(hostname) === 0 && { servername: hostname }),
        ...material,
      });
      sockets.push(secure);
      secure.once('error', (error) => finish(error));
      // The server's verdict on our certificate arrives just after the handshake, or never.
      secure.once('secureConnect', () => {
        setTimeout(() => finish(undefined), Math.min(1_000, timeoutMs)).unref();
      });
    });
  });
}

function hostPort(server: string): { hostname: string; port: number } {
  const url = new URL(/^[a-z]+:\/\//i.test(server) ? server : `nats://${server}`);
  return { hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port === '' ? 4222 : Number(url.port) };
}

function parseInfo(line: string): { tls_required?: boolean; tls_available?: boolean } | undefined {
  if (!line.startsWith('INFO ')) return undefined;
  try {
    return JSON.parse(line.slice(5)) as { tls_required?: boolean; tls_available?: boolean };
  } catch {
    return undefined;
  }
}

async function readMaterial(tls: TlsOptions) {
  const read = async (inline: string | undefined, file: string | undefined) =>
    inline ?? (file === undefined ? undefined : await readFile(file, 'utf8'));
  const [ca, cert, key] = await Promise.all([
    read(tls.ca, tls.caFile),
    read(tls.cert, tls.certFile),
    read(tls.key, tls.keyFile),
  ]);
  return { ...(ca !== undefined && { ca }), ...(cert !== undefined && { cert }), ...(key !== undefined && { key }) };
}
