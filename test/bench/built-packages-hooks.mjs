// Resolve hooks for `BENCH_PACKAGES=built`: every `@interlude/*` import (the bench's and the
// packages' own imports of each other) goes to the package's compiled `dist`, through the exports
// it is published with (`publishConfig.exports`), as an installed package would. What users run:
// no tsx transform, no esbuild `__name` helper on every nested named function.
import { readFileSync } from 'node:fs';

const packages = new URL('../../packages/', import.meta.url);
const published = new Map();

function publishedExports(name) {
  let exports = published.get(name);
  if (exports === undefined) {
    const manifest = JSON.parse(readFileSync(new URL(`${name}/package.json`, packages), 'utf8'));
    exports = manifest.publishConfig?.exports ?? {};
    published.set(name, exports);
  }
  return exports;
}

export async function resolve(specifier, context, next) {
  const match = /^@interlude\/([a-z]+)(\/[^?#]*)?$/.exec(specifier);
  if (match === null) return next(specifier, context);
  const [, name, subpath] = match;
  const target = publishedExports(name)[subpath === undefined ? '.' : `.${subpath}`];
  const file = typeof target === 'string' ? target : target?.import;
  if (file === undefined) return next(specifier, context);
  return next(new URL(`${name}/${file}`, packages).href, context);
}
