import { ConfigError } from '@credit/config/load-config';
import { gatewayConfig } from '../src/config';

/** TRUST_PROXY is checked at boot: a hop count, proxy addresses / CIDR blocks, or off; anything else stops the gateway. */
describe('TRUST_PROXY', () => {
  const trustProxy = (value: string | undefined) => gatewayConfig(value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY;

  it('is off unless set', () => {
    for (const off of [undefined, '', '  ', '0', 'off', 'false', 'FALSE']) expect(trustProxy(off)).toBe(false);
  });

  it('takes a hop count', () => {
    expect(trustProxy('1')).toBe(1);
    expect(trustProxy(' 2 ')).toBe(2);
  });

  it('takes proxy addresses, CIDR blocks and named ranges, comma-separated', () => {
    expect(trustProxy('10.0.0.0/8, 192.168.1.7 ,fd00::/8,::1,loopback,uniquelocal')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      '::1',
      'loopback',
      'uniquelocal',
    ]);
  });

  it.each(['true', 'yes', '*', '10.0.0.0/33', 'fd00::/129', '10.0.0/8', 'example.com', '10.0.0.1,', '-1', '1.5', '10.0.0.0/'])(
    'refuses %j at boot, naming the variable',
    (value) => {
      expect(() => trustProxy(value)).toThrow(ConfigError);
      expect(() => trustProxy(value)).toThrow(/TRUST_PROXY: must be a hop count or comma-separated proxy IPs/);
    },
  );
});
