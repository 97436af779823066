// Writes packages/bus/asyncapi.json from the code's schemas, formatted as the repository's biome
// formats JSON:   npx tsx test/contract/write-asyncapi.ts
// asyncapi-document.test.ts fails until the committed document is what this writes.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ASYNCAPI_PATH, asyncApiDocument } from './asyncapi-document.js';

const path = fileURLToPath(ASYNCAPI_PATH);
writeFileSync(path, `${JSON.stringify(asyncApiDocument(), null, 2)}\n`);
execFileSync('npx', ['biome', 'format', '--write', path], { stdio: 'inherit' });
