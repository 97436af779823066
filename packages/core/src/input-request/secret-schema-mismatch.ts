import type { z } from 'zod';
import { Scrubber } from '../secrets/scrub.js';
import { declaredPropertyNames } from '../secrets/secret-leaves.js';

/** Issues a message lists; the rest are counted. */
const LISTED_ISSUES = 5;

/**
 * What is wrong with a secret answer that does not fit its schema, without the answer: zod's own
 * text quotes keys it did not expect (`Unrecognized key: "acct-8812"`) and paths through the
 * answer's keys, and a person may type a secret as a key. Paths keep array positions and the
 * property names the schema declares (the tool's words); any other key is `<key>`. Each issue is
 * said from its code and the schema's side (expected type, bound, format), and the whole message
 * is checked against the answer once more, so nothing of it gets through.
 */
export function describeSecretMismatch(error: z.ZodError, answer: unknown, schema: unknown): string {
  const declared = declaredPropertyNames(schema);
  const lines = error.issues
    .slice(0, LISTED_ISSUES)
    .map((issue) => `${pathOf(issue.path, declared)}: ${whatOf(issue)}`);
  if (error.issues.length > LISTED_ISSUES) lines.push(`and ${error.issues.length - LISTED_ISSUES} more`);
  const message = `${lines.join('; ')} (the answer is a secret, so it is not shown)`;
  const answerScrubber = new Scrubber();
  answerScrubber.add(
    answer,
    typeof schema === 'object' && schema !== null ? (schema as Record<string, unknown>) : undefined,
  );
  return answerScrubber.contains(message)
    ? 'it does not fit (the answer is a secret, so nothing of it is shown)'
    : message;
}

function pathOf(path: readonly PropertyKey[], declared: ReadonlySet<string>): string {
  if (path.length === 0) return 'the answer';
  const written = path.map((segment) => {
    if (typeof segment === 'number') return `[${segment}]`;
    return typeof segment === 'string' && declared.has(segment) ? `.${segment}` : '.<key>';
  });
  return `the answer${written.join('')}`;
}

function whatOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys':
      return `${issue.keys.length} ${issue.keys.length === 1 ? 'key' : 'keys'} the schema does not allow`;
    case 'invalid_type':
      return `expected ${issue.expected}`;
    case 'too_small':
      return `too small for the schema (${issue.inclusive === false ? 'more than' : 'at least'} ${String(issue.minimum)}${unitOf(issue.origin)})`;
    case 'too_big':
      return `too big for the schema (${issue.inclusive === false ? 'less than' : 'at most'} ${String(issue.maximum)}${unitOf(issue.origin)})`;
    case 'invalid_format':
      return `not in the schema's format (${issue.format})`;
    case 'not_multiple_of':
      return `not a multiple of ${String(issue.divisor)}`;
    case 'invalid_value':
      return 'not one of the values the schema allows';
    case 'invalid_union':
      return "fits none of the schema's alternatives";
    case 'invalid_key':
      return 'a key that does not fit the schema';
    case 'invalid_element':
      return 'an entry that does not fit the schema';
    default:
      return 'does not fit the schema';
  }
}

function unitOf(origin: string): string {
  if (origin === 'string') return ' characters';
  if (origin === 'array' || origin === 'set') return ' items';
  return '';
}
