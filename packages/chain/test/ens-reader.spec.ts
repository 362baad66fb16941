import { loadArtifacts } from '@credit/devnet/compile';
import { Deployer } from '@credit/devnet/deployer';
import { registerEnsName, setPrimaryEnsName } from '@credit/devnet/ens';
import { chainConfigSchema } from '../src/chain-config';
import { createChainClient, type ChainClient } from '../src/clients';
import { EnsNotConfiguredError, resolveEnsAddress, resolveEnsAvatar, resolveEnsNames } from '../src/ens-reader';
import { RoundTripCounter } from './round-trip-counter';
import { accountAddress, startChainFixture, type ChainFixture } from './helpers';

jest.setTimeout(60_000);

// An on-chain (data:) avatar, so getEnsAvatar needs no HTTP fetch.
const AVATAR = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>').toString('base64')}`;

/** Chain 1 of the devnet carries ENS; the registry's `ens` entry comes from the devnet contracts. */
describe('ENS reader on devnet chain 1', () => {
  let fx: ChainFixture;
  let chain: ChainClient;
  const counter = new RoundTripCounter();
  const alice = accountAddress(1);
  const bob = accountAddress(2);
  const nobody = accountAddress(3);
  /** Claims alice.eth as its primary name, which resolves to alice: the resolver's ReverseAddressMismatch. */
  const impostor = accountAddress(4);

  beforeAll(async () => {
    fx = await startChainFixture(1);
    const ens = fx.contracts.ens!;
    const d = new Deployer(fx.as(0), loadArtifacts());
    await registerEnsName(d, ens, 'alice', alice, { address: alice, texts: { avatar: AVATAR } });
    await setPrimaryEnsName(fx.as(1), ens, 'alice.eth');
    await registerEnsName(d, ens, 'bob', bob, { address: bob });
    await setPrimaryEnsName(fx.as(2), ens, 'bob.eth');
    await setPrimaryEnsName(fx.as(4), ens, 'alice.eth');
    chain = createChainClient(fx.config, { onRequest: counter.onRequest });
  });
  afterAll(async () => {
    await fx?.stop();
  });
  beforeEach(() => counter.reset());

  it('takes the universal resolver, the registry and the registrar controller from the devnet state', () => {
    expect(fx.config.ens).toEqual({
      registry: fx.contracts.ens!.registry,
      universalResolver: fx.contracts.ens!.universalResolver,
      registrarController: fx.contracts.ens!.registrarController,
    });
  });

  it('resolves forward (normalising the name) and reverse, one eth_call each', async () => {
    expect(await resolveEnsAddress(chain, 'Alice.eth')).toBe(alice);
    expect(counter.methods()).toEqual(['eth_call']);
    counter.reset();
    expect((await resolveEnsNames(chain, [alice])).names).toEqual(['alice.eth']);
    expect(counter.methods()).toEqual(['eth_call']);
  });

  it('reverse-resolves many addresses in one eth_call, null for none and for a primary name that resolves elsewhere', async () => {
    const reading = await resolveEnsNames(chain, [alice, nobody, bob, impostor]);
    expect(counter.methods()).toEqual(['eth_call']);
    expect(reading.names).toEqual(['alice.eth', null, 'bob.eth', null]);
    // the block it read at, as the chain describes its head
    const head = await chain.client.getBlock({ blockTag: 'latest' });
    expect(reading.block).toEqual({ number: head.number, timestamp: head.timestamp });
    expect((await resolveEnsNames(chain, [])).names).toEqual([]);
  });

  it('throws when the reverse lookup fails for another reason than "no primary name"', async () => {
    // a universal resolver address with no code answers nothing: not a "no name"
    const noResolver = createChainClient({ ...fx.config, ens: { ...fx.config.ens!, universalResolver: nobody } });
    await expect(resolveEnsNames(noResolver, [alice])).rejects.toThrow(/reverse lookup of .* failed: no data returned/);
  });

  it('resolves the avatar', async () => {
    expect(await resolveEnsAvatar(chain, 'alice.eth')).toBe(AVATAR);
  });

  it('answers null where there is nothing', async () => {
    expect(await resolveEnsAddress(chain, 'nobody.eth')).toBeNull();
    expect((await resolveEnsNames(chain, [nobody])).names).toEqual([null]);
    expect(await resolveEnsAvatar(chain, 'bob.eth')).toBeNull();
  });

  it('refuses a chain without ENS configured', async () => {
    const { ens: _ens, ...withoutEns } = fx.config;
    const bare = createChainClient(chainConfigSchema.parse(withoutEns));
    await expect(resolveEnsNames(bare, [alice])).rejects.toThrow(EnsNotConfiguredError);
    await expect(resolveEnsAddress(bare, 'alice.eth')).rejects.toThrow('chain 1 has no ENS universal resolver configured');
  });
});
