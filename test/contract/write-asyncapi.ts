// Writes packages/bus/asyncapi.json from the code's schemas, formatted as the repository's biome
// formats JSON, and freezes the schema of each message the current major version has not frozen
// yet (test/contract/versions/<major>/; a frozen file is never written again):
//   npx tsx test/contract/write-asyncapi.ts
// asyncapi-document.test.ts fails until the committed document is what this writes.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ASYNCAPI_PATH, asyncApiDocument, CONTRACT_VERSION } from './asyncapi-document.js';
import { freezeNewMessages } from './frozen-versions.js';

const path = fileURLToPath(ASYNCAPI_PATH);
const document = asyncApiDocument();
writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
const frozen = freezeNewMessages(JSON.parse(JSON.stringify(document)), CONTRACT_VERSION);
execFileSync('npx', ['biome', 'format', '--write', path, ...frozen], { stdio: 'inherit' });
