import {
  createPublicClient,
  http,
  labelhash,
  maxUint64,
  namehash,
  parseEventLogs,
  toEventSelector,
  zeroAddress,
  type Address,
  type Hash,
} from 'viem';
import { normalize } from 'viem/ens';
import { devnetChain, viemChainContracts } from '../src/chains';
import { loadArtifacts } from '../src/compile';
import { Deployer } from '../src/deployer';
import { ensAbi, ensEvents, ensRecordCalls, ensRegisterArgs, registerEnsName, setPrimaryEnsName } from '../src/ens';
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

describe('the .eth registrar controller', () => {
  let chain: TestChain;
  let d: Deployer;
  const dave = account(5).address;
  const erin = account(6).address;
  const controllerAbi = () => ensAbi.registrarController();

  beforeAll(async () => {
    chain = await startTestChain(1);
    d = new Deployer(chain.as(0), loadArtifacts());
  }, 30_000);
  afterAll(async () => {
    await chain?.anvil.stop();
  });

  const ens = () => chain.contracts.ens!;
  const client = () =>
    createPublicClient({
      chain: devnetChain({ id: 1, name: 'Ethereum' }, chain.anvil.rpcUrl, viemChainContracts(chain.contracts)),
      transport: http(chain.anvil.rpcUrl),
    });
  const ownerOf = (name: string) =>
    client().readContract({
      address: ens().registry,
      abi: ensAbi.registry(),
      functionName: 'owner',
      args: [namehash(name)],
    }) as Promise<Address>;
  const register = (label: string, owner: Address, from = 0) =>
    chain.as(from).wallet.writeContract({
      address: ens().registrarController,
      abi: controllerAbi(),
      functionName: 'register',
      args: ensRegisterArgs(ens(), label, owner, { address: owner }),
    } as never);

  it('owns eth; the deployer is its admin', async () => {
    expect(await ownerOf('eth')).toBe(ens().registrarController);
    const read = (functionName: string) =>
      client().readContract({ address: ens().registrarController, abi: controllerAbi(), functionName });
    expect(await read('admin')).toBe(d.address);
    expect(await read('ens')).toBe(ens().registry);
    expect(await read('baseNode')).toBe(namehash('eth'));
  });

  it("registers a name in one transaction: the registry's NewOwner, then Transfer to the owner, then NameRegistered with the label", async () => {
    const hash: Hash = await d.write(ens().registrarController, controllerAbi(), 'register', [
      'dave',
      dave,
      ens().publicResolver,
      ensRecordCalls('dave.eth', { address: dave, texts: { url: 'https://dave.example' } }),
    ]);
    const receipt = await client().getTransactionReceipt({ hash });
    const node = namehash('dave.eth');
    const events = parseEventLogs({ abi: ensEvents, logs: receipt.logs });
    expect(events.map((e) => [e.eventName, e.address])).toEqual([
      ['NewOwner', ens().registry.toLowerCase()],
      ['NewResolver', ens().registry.toLowerCase()],
      ['Transfer', ens().registry.toLowerCase()],
      ['NameRegistered', ens().registrarController.toLowerCase()],
    ]);
    expect(events[0]!.args).toEqual({ node: namehash('eth'), label: labelhash('dave'), owner: ens().registrarController });
    expect(events[1]!.args).toEqual({ node, resolver: ens().publicResolver });
    expect(events[2]!.args).toEqual({ node, owner: dave });
    expect(events[3]!.args).toEqual({ name: 'dave', label: labelhash('dave'), owner: dave, baseCost: 0n, premium: 0n, expires: maxUint64 });
    // mainnet's topics, and the registry's own (fixed) ABI decodes its Transfer
    const topic0 = (address: Address) => receipt.logs.filter((l) => l.address === address.toLowerCase()).map((l) => l.topics[0]);
    expect(topic0(ens().registrarController)).toEqual([toEventSelector('NameRegistered(string,bytes32,address,uint256,uint256,uint256)')]);
    expect(topic0(ens().registry)).toEqual([
      toEventSelector('NewOwner(bytes32,bytes32,address)'),
      toEventSelector('NewResolver(bytes32,address)'),
      toEventSelector('Transfer(bytes32,address)'),
    ]);
    expect(parseEventLogs({ abi: ensAbi.registry(), logs: receipt.logs, eventName: 'Transfer' }).map((e) => e.args)).toEqual([
      { node, owner: dave },
    ]);
    // the records were written while the controller owned the node
    expect(await ownerOf('dave.eth')).toBe(dave);
    expect(await client().getEnsAddress({ name: 'dave.eth' })).toBe(dave);
    expect(await client().getEnsText({ name: 'dave.eth', key: 'url' })).toBe('https://dave.example');
  });

  it('refuses a taken name, a caller other than the admin, and records for another name', async () => {
    await expect(register('dave', erin)).rejects.toThrow(/NameNotAvailable/);
    await expect(register('erin', erin, 6)).rejects.toThrow(/NotAdmin/);
    await expect(register('', erin)).rejects.toThrow(/NameNotAvailable/);
    await expect(
      d.write(ens().registrarController, controllerAbi(), 'register', [
        'erin',
        erin,
        ens().publicResolver,
        ensRecordCalls('dave.eth', { address: erin }),
      ]),
    ).rejects.toThrow(/RecordNodeMismatch/);
    await expect(
      d.write(ens().registrarController, controllerAbi(), 'register', [
        'erin',
        erin,
        zeroAddress,
        ensRecordCalls('erin.eth', { address: erin }),
      ]),
    ).rejects.toThrow(/ResolverRequiredWhenDataSupplied/);
    expect(await ownerOf('dave.eth')).toBe(dave);
    expect(await ownerOf('erin.eth')).toBe(zeroAddress);
    const available = (name: string) =>
      client().readContract({ address: ens().registrarController, abi: controllerAbi(), functionName: 'available', args: [name] });
    expect([await available('dave'), await available('erin')]).toEqual([false, true]);
  });

  it('names registered through it resolve forward, and the owner sets its primary name (getEnsName)', async () => {
    await registerEnsName(d, ens(), 'erin', erin, { address: erin });
    await registerEnsName(d, ens(), 'erin-labs', erin, { address: erin });
    await setPrimaryEnsName(chain.as(6), ens(), 'erin.eth');
    expect(await ownerOf('erin.eth')).toBe(erin);
    expect(await ownerOf('erin-labs.eth')).toBe(erin);
    expect(await client().getEnsAddress({ name: 'erin-labs.eth' })).toBe(erin);
    expect(await client().getEnsName({ address: erin })).toBe('erin.eth');
    // the owner, not the controller, controls the name afterwards
    await chain.as(6).public.waitForTransactionReceipt({
      hash: await chain.as(6).wallet.writeContract({
        address: ens().publicResolver,
        abi: ensAbi.publicResolver(),
        functionName: 'setText',
        args: [namehash('erin-labs.eth'), 'url', 'https://erin.example'],
      } as never),
    });
    expect(await client().getEnsText({ name: 'erin-labs.eth', key: 'url' })).toBe('https://erin.example');
  });
});
