/**
 * The strings a secret answer is made of, each scrubbed on its own: strings and numbers (in
 * written form) at any depth, and the keys of its objects — a person may type a secret as a key
 * (`{ "acct-8812": "…" }`). Keys the request's schema declares under `properties` are left out:
 * the tool wrote those before anyone answered, and scrubbing `password` everywhere would corrupt
 * every result that names the field.
 */
export function secretLeaves(answer: unknown, schema?: Record<string, unknown>): string[] {
  const declared = declaredPropertyNames(schema);
  const leaves: string[] = [];
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') leaves.push(value);
    else if (typeof value === 'number' || typeof value === 'bigint') leaves.push(String(value));
    else if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return;
    else if (Array.isArray(value)) for (const item of value) visit(item, depth + 1);
    else {
      for (const [key, item] of Object.entries(value)) {
        if (!declared.has(key)) leaves.push(key);
        visit(item, depth + 1);
      }
    }
  };
  visit(answer, 0);
  return leaves;
}

/** Answers are JSON a person sent; this only bounds a pathological one. */
const MAX_DEPTH = 64;

/** The property names a JSON Schema declares under `properties`, at any depth: the tool's words, not the answer's. */
export function declaredPropertyNames(schema: unknown): Set<string> {
  const names = new Set<string>();
  collectPropertyNames(schema, names, 0);
  return names;
}

function collectPropertyNames(schema: unknown, names: Set<string>, depth: number): void {
  if (typeof schema !== 'object' || schema === null || depth > MAX_DEPTH) return;
  if (Array.isArray(schema)) {
    for (const item of schema) collectPropertyNames(item, names, depth + 1);
    return;
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'properties' && typeof value === 'object' && value !== null) {
      for (const name of Object.keys(value)) names.add(name);
    }
    collectPropertyNames(value, names, depth + 1);
  }
}
