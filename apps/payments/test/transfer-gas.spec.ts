import { KEY_SIGNED_TRANSFER_GAS, withTransferGas } from '../src/domain/transfer-gas';

const auth = ['0x01', '0x02', 1n, 0n, 2n, '0x03'] as const;

describe('withTransferGas', () => {
  it('sets the gas limit of a transfer signed by a key (v, r, s), so it is not estimated', () => {
    const write = { functionName: 'transferWithAuthorization', args: [...auth, 27, '0xr', '0xs'] };
    expect(withTransferGas(write)).toEqual({ ...write, gas: KEY_SIGNED_TRANSFER_GAS });
    expect(write).not.toHaveProperty('gas');
  });

  it("leaves a transfer signed by a contract (one bytes signature: ERC-1271) to the node's estimate", () => {
    const write = { functionName: 'transferWithAuthorization', args: [...auth, '0xsignature'] };
    expect(withTransferGas(write)).toBe(write);
  });

  it('keeps a gas limit already given, and any other write as it is', () => {
    const given = { functionName: 'transferWithAuthorization', args: [...auth, 27, '0xr', '0xs'], gas: 100_000n };
    expect(withTransferGas(given)).toBe(given);
    const other = { functionName: 'approve', args: [1, 2, 3, 4, 5, 6, 7, 8, 9] };
    expect(withTransferGas(other)).toBe(other);
  });
});
