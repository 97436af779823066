// `node --import ./bench/use-built-packages.mjs`: see built-packages-hooks.mjs.
import { register } from 'node:module';

register('./built-packages-hooks.mjs', import.meta.url);
