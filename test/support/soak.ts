/**
 * The one switch between the default run and the long run of the soak tests (the restarts, the
 * connection cuts, the resume races, the fuzzing): `INTERLUDE_SOAK=long` runs each at its long
 * size, anything else at its default size. Each guarantee is tested in both runs; the long run
 * only tries it more times, to catch what is rare. `test/README.md` says when to run it.
 */
export const LONG_SOAK = process.env['INTERLUDE_SOAK'] === 'long';

const soakValue = process.env['INTERLUDE_SOAK'];
if (soakValue !== undefined && soakValue !== '' && soakValue !== 'long') {
  throw new Error(`INTERLUDE_SOAK must be "long" or unset, not ${JSON.stringify(soakValue)}`);
}

/** `long` in the long run (`INTERLUDE_SOAK=long`), `short` otherwise. */
export function soakSize(sizes: { short: number; long: number }): number {
  return LONG_SOAK ? sizes.long : sizes.short;
}
