/**
 * The Interlude demo: a support desk where agents stop to ask a person and carry on once
 * answered. `npx -y pnpm@12.4.2 demo` starts it with embedded defaults (memory bus, in-process worker, memory
 * context store, a local scripted model speaking the Anthropic wire format) and prints the URL.
 */
import { PNPM } from './config/pnpm-command.js';
import { readDemoConfig } from './config/read-demo-config.js';
import { createDesk } from './desk/create-desk.js';
import { startDemoServer } from './server/start-demo-server.js';

const config = readDemoConfig();
const desk = await createDesk(config);
const server = await startDemoServer(desk, {
  host: config.host,
  port: config.port,
  allowedHosts: config.allowedHosts,
}).catch(async (error: unknown) => {
  await desk.close();
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`Port ${config.port} is taken: start the demo with PORT=<another port> ${PNPM} demo`);
    process.exit(1);
  }
  throw error;
});

console.log('Interlude demo: a support desk where agents pause to ask a person\n');
for (const line of desk.defaults) console.log(`  ${line}`);
console.log(`\n  Open ${server.url}`);
console.log(
  `  Terminal: ${PNPM} --filter @interlude/demo cli pending | answer <generation> <call> <value> | decline <generation> <call> | replay <generation> | tail\n`,
);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await server.close();
  await desk.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
