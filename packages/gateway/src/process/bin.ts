#!/usr/bin/env node
/** `interlude-gateway <module>`: the HTTP gateway configured from its environment. See `--help` and the package README. */
import { runGatewayProcess } from './run-gateway-process.js';

await runGatewayProcess(process.argv.slice(2), process.env);
