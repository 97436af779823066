import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ASYNCAPI_PATH, asyncApiDocument } from './asyncapi-document.js';

describe('the published wire contract (packages/bus/asyncapi.json)', () => {
  it('is what the code generates: regenerate it with npx tsx test/contract/write-asyncapi.ts', () => {
    const committed: unknown = JSON.parse(readFileSync(ASYNCAPI_PATH, 'utf8'));
    // Through JSON, as it is written: fields left undefined are not part of it.
    expect(committed).toEqual(JSON.parse(JSON.stringify(asyncApiDocument())));
  });
});
