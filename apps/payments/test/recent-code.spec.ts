import type { Address, Hex } from 'viem';
import { recentCode } from '../src/domain/recent-code';

const PAYER = '0x00000000000000000000000000000000000000Aa' as Address;

/** A getCode that counts its reads and answers what `answer` says at the time of the read. */
function countingReader(answer: () => Promise<Hex | undefined>) {
  const reads: string[] = [];
  return {
    reads,
    getCode: ({ address }: { address: Address }) => {
      reads.push(address);
      return answer();
    },
  };
}

describe('recentCode', () => {
  it('reads an address once while its answer is recent, in either case; then reads it again', async () => {
    let t = 1_000;
    let code: Hex = '0x';
    const chain = countingReader(async () => code);
    const getCode = recentCode(chain.getCode, 30_000, () => t);
    expect(await getCode({ address: PAYER })).toBe('0x');
    expect(await getCode({ address: PAYER.toLowerCase() as Address })).toBe('0x');
    t += 29_999;
    code = '0x6000';
    expect(await getCode({ address: PAYER })).toBe('0x');
    expect(chain.reads).toHaveLength(1);
    t += 1;
    expect(await getCode({ address: PAYER })).toBe('0x6000');
    expect(chain.reads).toHaveLength(2);
  });

  it('lets calls for an address being read join that read', async () => {
    let release: (code: Hex) => void = () => undefined;
    const chain = countingReader(() => new Promise<Hex>((resolve) => (release = resolve)));
    const getCode = recentCode(chain.getCode, 30_000);
    const both = Promise.all([getCode({ address: PAYER }), getCode({ address: PAYER })]);
    release('0x');
    expect(await both).toEqual(['0x', '0x']);
    expect(chain.reads).toHaveLength(1);
  });

  it('keeps no failed read: the next call reads again', async () => {
    let fail = true;
    const chain = countingReader(async () => {
      if (fail) throw new Error('the chain is unreachable');
      return '0x';
    });
    const getCode = recentCode(chain.getCode, 30_000);
    await expect(getCode({ address: PAYER })).rejects.toThrow('unreachable');
    fail = false;
    expect(await getCode({ address: PAYER })).toBe('0x');
    expect(chain.reads).toHaveLength(2);
  });

  it('keeps each address apart', async () => {
    const chain = countingReader(async () => '0x');
    const getCode = recentCode(chain.getCode, 30_000);
    const other = '0x00000000000000000000000000000000000000bB' as Address;
    await getCode({ address: PAYER });
    await getCode({ address: other });
    await getCode({ address: other });
    expect(chain.reads).toEqual([PAYER, other]);
  });
});
