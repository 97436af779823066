// What test/support/global-setup.ts provides to every test; declared here too so this package
// type-checks on its own.
import 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    natsUrl: string;
  }
}
