import type { EventFilter, EventSelector } from './bus.js';
import type { EventName, GenerationEvent } from './events.js';

/** The filter an event name, a list of names or a filter stands for. */
export function toEventFilter(selector: EventSelector): EventFilter {
  if (typeof selector === 'string') return { event: selector };
  if (Array.isArray(selector)) return { event: [...selector] as EventName[] };
  return selector as EventFilter;
}

/** Whether an event passes a subscription filter (every given field must match). */
export function matchesFilter(filter: EventFilter, event: GenerationEvent): boolean {
  if (filter.event !== undefined) {
    const names = Array.isArray(filter.event) ? filter.event : [filter.event];
    if (!names.includes(event.event)) return false;
  }
  if (filter.agent !== undefined && filter.agent !== event.agent) return false;
  if (filter.action !== undefined && filter.action !== event.action) return false;
  if (filter.generationId !== undefined && filter.generationId !== event.generation_id) return false;
  return true;
}
