export { createGateway, GATEWAY_DEFAULTS, type Gateway, type GatewayOptions } from './create-gateway.js';
export { GatewayError, type GatewayErrorCode } from './gateway-error.js';
export { GATEWAY_SCOPES, type GatewayKey, type GatewayScope, parseGatewayKeys } from './gateway-keys.js';
export type { RateLimit } from './rate-limiter.js';
