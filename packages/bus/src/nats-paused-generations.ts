import type { NatsResources } from './nats-setup.js';

/**
 * Every generation whose log on the events stream holds an `input_requested` event: the stream
 * counts messages per subject, and a generation's pauses are on one subject
 * (`<root>.<agent>.<action>.<generation>.input_requested`), so the generation ids are read off the
 * subjects the stream keeps without reading a message. nats.js pages through the subjects.
 */
export async function pausedGenerations({ manager, names }: NatsResources): Promise<string[]> {
  const info = await manager.streams.info(names.eventsStream, {
    subjects_filter: `${names.eventsSubjectRoot}.*.*.*.input_requested`,
  });
  const ids = new Set<string>();
  for (const subject of Object.keys(info.state.subjects ?? {})) {
    const tokens = subject.split('.');
    const generationId = tokens[tokens.length - 2];
    if (generationId !== undefined) ids.add(generationId);
  }
  return [...ids];
}
