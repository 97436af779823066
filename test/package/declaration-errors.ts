/** One error `tsc` printed: where, which code, what it said. */
export interface CompilerError {
  file: string;
  code: string;
  message: string;
}

/** The errors of a `tsc` run's output (`file(line,col): error TSxxxx: message`). */
export function compilerErrors(output: string): CompilerError[] {
  return [...output.matchAll(/^(\S[^(\n]*)\(\d+,\d+\): error (TS\d+): (.*)$/gm)].map((match) => ({
    file: match[1] as string,
    code: match[2] as string,
    message: match[3] as string,
  }));
}

/**
 * Errors in our dependencies' own declaration files under the strict consumer options, which no
 * code of ours can fix: a user who turns on `exactOptionalPropertyTypes` with
 * `skipLibCheck: false` meets them as soon as a program loads nats.js's types, with or without
 * Interlude. Pinned here, with the version of the package they were read in, so that a new one,
 * one that upstream fixed, or a version bump nobody checked them against fails the test, and the
 * README's Install section stays exact.
 */
export const UPSTREAM_DECLARATION_ERRORS: readonly (CompilerError & {
  /** The package whose declarations hold it, and the version it was read in. */
  upstream: { name: string; version: string };
  reason: string;
})[] = [
  {
    file: 'node_modules/@nats-io/nats-core/lib/msg.d.ts',
    code: 'TS2420',
    message: "Class 'MsgImpl' incorrectly implements interface 'Msg'.",
    upstream: { name: '@nats-io/nats-core', version: '3.3.1' },
    reason: "class MsgImpl's headers (MsgHdrs | undefined) do not fit the optional Msg.headers",
  },
  {
    file: 'node_modules/@nats-io/nats-core/lib/nats.d.ts',
    code: 'TS2420',
    message: "Class 'NatsConnectionImpl' incorrectly implements interface 'NatsConnection'.",
    upstream: { name: '@nats-io/nats-core', version: '3.3.1' },
    reason: "class NatsConnectionImpl's info (ServerInfo | undefined) does not fit NatsConnection.info",
  },
];

/** Whether an error is one of {@link UPSTREAM_DECLARATION_ERRORS}. */
export function isUpstreamDeclarationError(error: CompilerError): boolean {
  return UPSTREAM_DECLARATION_ERRORS.some(
    (known) => known.file === error.file && known.code === error.code && known.message === error.message,
  );
}
