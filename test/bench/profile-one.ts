// scratch: profile one variant (not committed)
import { bareSdkVariant, interludeMemoryVariant } from './cycle-variants.js';
import { startWireServerProcess } from './wire-server-process.js';
process.env['INTERLUDE_CHECKPOINT_KEY'] ??= 'interlude-bench-checkpoint-key';
const wire = await startWireServerProcess();
const which = process.argv[2] ?? 'memory';
const variant = which === 'bare' ? bareSdkVariant(wire.baseURL) : interludeMemoryVariant(wire.baseURL);
const n = Number(process.argv[3] ?? 2000);
for (let i = 0; i < 200; i++) await variant.cycle(i);
const t = performance.now();
for (let i = 0; i < n; i++) await variant.cycle(i);
console.log(which, ((performance.now() - t) / n).toFixed(3), 'ms/cycle');
await variant.close(); await wire.stop(); process.exit(0);
