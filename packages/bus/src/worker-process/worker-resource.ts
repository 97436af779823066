import { randomUUID } from 'node:crypto';

/** One id for this process, so its traces and its metrics name the same instance. */
const INSTANCE_ID = randomUUID();

type Resources = typeof import('@opentelemetry/resources');

/**
 * The OpenTelemetry resource of an `interlude-worker` process: its service name and instance id,
 * then whatever `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` say (the environment wins).
 * `resources` is the SDK package the caller loaded, since it is an optional peer.
 */
export function workerResource(resources: Resources) {
  return resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': 'interlude-worker', 'service.instance.id': INSTANCE_ID }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
}
