import { decodePaymentRequiredHeader } from '@x402/core/http';
import { challengeOf } from '../src/challenge';
import { offeredPayment, PaymentRejected } from '../src/payment-header';
import { x402Settings } from '../src/x402-settings';

const PAY_TO = '0x000000000000000000000000000000000000dEaD';
const settings = x402Settings({ X402_PAY_TO: PAY_TO })!;
const challenge = challengeOf(
  { cu: 7, resource: 'http://api.test/api/v2/report/address/0xabc', description: 'Full report', signupUrl: 'http://api.test/dashboard/' },
  settings,
);

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
const authorization = {
  from: '0x1111111111111111111111111111111111111111',
  to: PAY_TO,
  value: '70000',
  validAfter: '0',
  validBefore: '9999999999',
  nonce: `0x${'ab'.repeat(32)}`,
};

function rejection(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof PaymentRejected) return error.reason;
    throw error;
  }
  throw new Error('accepted');
}

describe('the challenge', () => {
  it('prices CU × 10,000 atomic units; v1 accepts only the v1 networks; the v2 header has all four', () => {
    expect(challenge.body).toMatchObject({ credit_units: 7, x402Version: 1 });
    const accepts = challenge.body.accepts as { network: string; maxAmountRequired: string }[];
    expect(accepts.map((a) => [a.network, a.maxAmountRequired])).toEqual([
      ['base', '70000'],
      ['base-sepolia', '70000'],
    ]);
    const v2 = decodePaymentRequiredHeader(challenge.header);
    expect(v2.accepts.map((a) => [a.network, a.amount, a.extra])).toEqual([
      ['eip155:8453', '70000', { name: 'USD Coin', version: '2' }],
      ['eip155:84532', '70000', { name: 'USDC', version: '2' }],
      ['eip155:1187947933', '70000', { name: 'Bridged USDC (SKALE Bridge)', version: '2' }],
      ['eip155:324705682', '70000', { name: 'Bridged USDC (SKALE Bridge)', version: '2' }],
    ]);
    expect((challenge.body.options as { method: string; price?: string }[]).map((o) => [o.method, o.price])).toEqual([
      ['api_token', undefined],
      ['x402_payment', '0.07'],
    ]);
  });

  it('X402_OFFERED_NETWORKS narrows the offer; an unknown network is a configuration error', () => {
    const narrowed = x402Settings({ X402_PAY_TO: PAY_TO, X402_OFFERED_NETWORKS: 'eip155:84532' })!;
    expect(narrowed.networks.map((n) => n.network)).toEqual(['eip155:84532']);
    expect(() => x402Settings({ X402_PAY_TO: PAY_TO, X402_OFFERED_NETWORKS: 'eip155:1' })).toThrow(/unknown network/);
    expect(x402Settings({})).toBeUndefined();
  });
});

describe('reading a payment header', () => {
  it('picks the v1 requirement by network name and the v2 one by CAIP-2 network', () => {
    const v1 = offeredPayment(
      { xPayment: encode({ x402Version: 1, scheme: 'exact', network: 'base-sepolia', payload: { signature: '0x12', authorization } }) },
      challenge,
    );
    expect([v1.x402Version, v1.requirements.network]).toEqual([1, 'base-sepolia']);
    // whose payment it is, the header only claims: nothing of it is read as the payer before verification
    expect(v1).not.toHaveProperty('payer');
    const v2 = offeredPayment(
      {
        paymentSignature: encode({
          x402Version: 2,
          accepted: { scheme: 'exact', network: 'eip155:8453' },
          payload: { signature: '0x12', authorization },
        }),
      },
      challenge,
    );
    expect([v2.x402Version, v2.requirements.network]).toEqual([2, 'eip155:8453']);
  });

  it.each([
    ['not base64', { xPayment: '%%%' }, 'invalid_payment_header'],
    ['not JSON', { xPayment: Buffer.from('{oops').toString('base64') }, 'invalid_payment_header'],
    ['an array', { xPayment: encode([1]) }, 'invalid_payment_header'],
    ['v2 in X-PAYMENT', { xPayment: encode({ x402Version: 2 }) }, 'invalid_x402_version'],
    [
      'a network not offered',
      { xPayment: encode({ x402Version: 1, scheme: 'exact', network: 'polygon', payload: {} }) },
      'unsupported_scheme',
    ],
    ['another scheme', { xPayment: encode({ x402Version: 1, scheme: 'upto', network: 'base', payload: {} }) }, 'unsupported_scheme'],
    [
      'no authorization',
      { xPayment: encode({ x402Version: 1, scheme: 'exact', network: 'base', payload: { signature: '0x1' } }) },
      'invalid_payload',
    ],
    ['v1 in PAYMENT-SIGNATURE', { paymentSignature: encode({ x402Version: 1 }) }, 'invalid_x402_version'],
    ['a huge header', { xPayment: 'A'.repeat(20_000) }, 'invalid_payment_header'],
  ])('%s', (_name, headers, reason) => {
    expect(rejection(() => offeredPayment(headers, challenge))).toBe(reason);
  });
});
