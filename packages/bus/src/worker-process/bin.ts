#!/usr/bin/env node
/**
 * `interlude-worker <module>`: a worker process configured from its environment. See
 * `interlude-worker --help` and the package README ("The worker process").
 */
import { runWorkerProcess } from './run-worker-process.js';

await runWorkerProcess(process.argv.slice(2), process.env);
