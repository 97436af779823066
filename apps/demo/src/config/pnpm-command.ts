/**
 * How every command in our docs runs pnpm: through npx, pinned, so a machine with only Node 20
 * runs it as written (a bare `pnpm` is not there on a fresh machine). The demo prints its hints
 * with it too, so what the terminal says can be pasted as is.
 */
export const PNPM = 'npx -y pnpm@12.4.2';
