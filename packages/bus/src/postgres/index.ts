export {
  type PostgresConnection,
  type PostgresContextStore,
  type PostgresContextStoreOptions,
  postgresContextStore,
} from './postgres-context-store.js';
