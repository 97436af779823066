import { memoryContextStore } from '@interlude/core';
import { describe } from 'vitest';
import { defineContextStoreConformance } from '../support/context-store-conformance.js';

describe('memoryContextStore as a ContextStore', () => {
  defineContextStoreConformance(() => memoryContextStore());
});
