export const GATEWAY_CONFIG = Symbol('GatewayConfig');
