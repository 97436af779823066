export { createGateway, type Gateway, type GatewayOptions } from './create-gateway.js';
export { type GatewayKey, type GatewayScope, parseGatewayKeys } from './gateway-keys.js';
export type { RateLimit } from './rate-limiter.js';
