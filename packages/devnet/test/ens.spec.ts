import { createPublicClient, http } from 'viem';
import { normalize } from 'viem/ens';
import { devnetChain, viemChainContracts } from '../src/chains';
import { loadArtifacts } from '../src/compile';
import { Deployer } from '../src/deployer';
import { registerEnsName, setPrimaryEnsName } from '../src/ens';
import { account, startTestChain, type TestChain } from './helpers';

// A 1×1 SVG as a data: URI: on-chain, so viem's getEnsAvatar needs no network.
const AVATAR = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>').toString('base64')}`;

describe("ENS on chain 1, through viem's own ENS actions", () => {
  let chain: TestChain;
  const alice = account(1).address;
  const bob = account(2).address;
  const carol = account(3).address;

  beforeAll(async () => {
    chain = await startTestChain(1);
    const ens = chain.contracts.ens!;
    const d = new Deployer(chain.as(0), loadArtifacts());
    await registerEnsName(d, ens, 'alice', alice, { address: alice, texts: { avatar: AVATAR, url: 'https://alice.example' } });
    await setPrimaryEnsName(chain.as(1), ens, 'alice.eth');
    // bob claims carol's name as primary: forward resolution disagrees
    await registerEnsName(d, ens, 'carol', carol, { address: carol });
    await setPrimaryEnsName(chain.as(2), ens, 'carol.eth');
  }, 30_000);
  afterAll(async () => {
    await chain?.anvil.stop();
  });

  const client = () =>
    createPublicClient({
      chain: devnetChain({ id: 1, name: 'Ethereum' }, chain.anvil.rpcUrl, viemChainContracts(chain.contracts)),
      transport: http(chain.anvil.rpcUrl),
    });

  it('resolves a name to its address (getEnsAddress)', async () => {
    expect(await client().getEnsAddress({ name: normalize('alice.eth') })).toBe(alice);
    expect(await client().getEnsAddress({ name: normalize('Alice.eth') })).toBe(alice);
  });

  it('resolves an address to its primary name (getEnsName)', async () => {
    expect(await client().getEnsName({ address: alice })).toBe('alice.eth');
  });

  it('reads text records and the avatar (getEnsText, getEnsAvatar)', async () => {
    expect(await client().getEnsText({ name: 'alice.eth', key: 'url' })).toBe('https://alice.example');
    expect(await client().getEnsAvatar({ name: 'alice.eth' })).toBe(AVATAR);
  });

  it('answers null for unknown names, addresses without a name, and mismatched primary names', async () => {
    expect(await client().getEnsAddress({ name: 'nobody.eth' })).toBeNull();
    expect(await client().getEnsText({ name: 'nobody.eth', key: 'avatar' })).toBeNull();
    expect(await client().getEnsAvatar({ name: 'carol.eth' })).toBeNull();
    expect(await client().getEnsName({ address: account(4).address })).toBeNull();
    expect(await client().getEnsName({ address: bob })).toBeNull();
    // the reasons, as the universal resolver's errors
    await expect(client().getEnsName({ address: bob, strict: true })).rejects.toThrow(/ReverseAddressMismatch/);
    await expect(client().getEnsName({ address: account(4).address, strict: true })).rejects.toThrow(/ResolverNotFound|ResolverError/);
    await expect(client().getEnsAddress({ name: 'nobody.eth', strict: true })).rejects.toThrow(/ResolverNotFound/);
  });
});
