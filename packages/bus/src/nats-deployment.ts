import { randomUUID } from 'node:crypto';
import { InterludeError } from '@interlude/core';
import { deploymentRecordSchema } from '@interlude/core/contract';
import type { JetStreamManager } from '@nats-io/jetstream';
import { headers as createHeaders } from '@nats-io/transport-node';
import { EXPECTED_LAST_SUBJECT_SEQUENCE_HEADER, type JetStreamRequests, MSG_ID_HEADER } from './jetstream-requests.js';
import { decodeJson, encodeJson } from './json-codec.js';
import { type RetryOptions, retryTransient } from './retry.js';
import type { NatsNames } from './subjects.js';

/** The checkpoint bucket's key that names the deployment (not a generation id: those start `gen_`). */
export const DEPLOYMENT_KEY = 'interlude-deployment';

/**
 * The deployment's id: made once, by whichever process gets there first, and read by every other
 * process on the same NATS. It is the default audience of checkpoints, so two deployments that
 * share a key still refuse each other's checkpoints. Reads go to the stream leader (a message get,
 * not a direct get a follower may answer); the first write is decided by the log: every creator
 * publishes with the same message id and an expected last sequence of 0, so exactly one id is
 * stored, and each reads that one back.
 */
export async function readDeploymentId(
  resources: { manager: JetStreamManager; requests: JetStreamRequests; names: NatsNames },
  retry: RetryOptions,
): Promise<string> {
  const { manager, requests, names } = resources;
  const stream = names.checkpointStream;
  const subject = names.checkpointKeySubject(DEPLOYMENT_KEY);
  const read = async () => {
    const stored = await retryTransient(() => manager.streams.getMessage(stream, { last_by_subj: subject }), retry);
    if (stored === null) return undefined;
    const parsed = deploymentRecordSchema.safeParse(decodeJson<unknown>(stored.data));
    // Written once and never replaced: a record of another shape is no deployment this release can join.
    if (!parsed.success) {
      throw new InterludeError(
        'invalid_deployment_record',
        `The record under ${subject} is not a version 1 deployment record: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'record'}: ${issue.message}`).join('; ')}`,
      );
    }
    return parsed.data.deployment_id;
  };
  const existing = await read();
  if (existing !== undefined) return existing;
  const headers = createHeaders();
  headers.set(MSG_ID_HEADER, DEPLOYMENT_KEY);
  headers.set(EXPECTED_LAST_SUBJECT_SEQUENCE_HEADER, '0');
  const candidate = encodeJson({ version: 1, deployment_id: `dep_${randomUUID().replaceAll('-', '')}` });
  try {
    await retryTransient(() => requests.publish(subject, candidate, headers), retry);
  } catch (error) {
    // Another process stored its id first: read that one.
    if ((error as { code?: unknown }).code !== 10071) throw error;
  }
  const stored = await read();
  if (stored === undefined) throw new Error(`The deployment id under ${subject} could not be read back`);
  return stored;
}
