import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM files made for one test: a CA, a server certificate for 127.0.0.1 and client certificates it signed. */
export interface TestCertificates {
  caFile: string;
  serverCertFile: string;
  serverKeyFile: string;
  /** A client certificate and key per name asked for (its CN). */
  clients: Record<string, { certFile: string; keyFile: string }>;
  /** A client certificate from another CA, which the server must refuse. */
  stranger: { certFile: string; keyFile: string };
}

/**
 * Makes certificates with `openssl` in `directory`, the way an operator would: a CA, a server
 * certificate for 127.0.0.1 / localhost, a client certificate per name signed by that CA, and one
 * signed by a CA nobody trusts. About a second of CPU.
 */
export async function makeTestCertificates(
  directory: string,
  clientNames: string[] = ['client'],
): Promise<TestCertificates> {
  const file = (name: string) => join(directory, name);
  const openssl = (...args: string[]) => run('openssl', args, { cwd: directory });
  // A fresh RSA key written to <name>.key, and what `-out` names: a certificate or a request.
  const newKey = (name: string, out: string) => [
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    out,
  ];
  const selfSigned = (name: string, subject: string) =>
    openssl('req', '-x509', ...newKey(name, `${name}.pem`), '-days', '2', '-subj', subject);
  const signed = async (name: string, subject: string, ca: string, extensions: string) => {
    await writeFile(file(`${name}.ext`), extensions);
    await openssl('req', ...newKey(name, `${name}.csr`), '-subj', subject);
    const authority = ['-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial'];
    await openssl(
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      ...authority,
      '-out',
      `${name}.pem`,
      '-days',
      '2',
      '-extfile',
      `${name}.ext`,
    );
    return { certFile: file(`${name}.pem`), keyFile: file(`${name}.key`) };
  };
  await Promise.all([selfSigned('ca', '/CN=Interlude test CA'), selfSigned('other-ca', '/CN=Nobody trusts this CA')]);
  const server = await signed(
    'server',
    '/CN=127.0.0.1',
    'ca',
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n',
  );
  const clients: TestCertificates['clients'] = {};
  for (const name of clientNames)
    clients[name] = await signed(`client-${name}`, `/CN=${name}`, 'ca', 'extendedKeyUsage=clientAuth\n');
  const stranger = await signed('stranger', '/CN=stranger', 'other-ca', 'extendedKeyUsage=clientAuth\n');
  return { caFile: file('ca.pem'), serverCertFile: server.certFile, serverKeyFile: server.keyFile, clients, stranger };
}
