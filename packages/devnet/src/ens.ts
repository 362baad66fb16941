import { readFileSync } from 'node:fs';
import { encodeFunctionData, labelhash, namehash, parseAbi, type Abi, type Address, type Hex } from 'viem';
import { artifact } from './compile';
import type { Deployer, DevnetClients } from './deployer';

/**
 * ENS on a devnet chain: the registry and reverse registrar from `@ensdomains/ens`, the public
 * resolver from `@ensdomains/resolver`, our universal resolver, and our `.eth` registrar controller.
 */
export interface EnsContracts {
  registry: Address;
  publicResolver: Address;
  reverseRegistrar: Address;
  universalResolver: Address;
  /**
   * `DevEthRegistrarController`, owner of `eth` in the registry: every `<label>.eth` is registered
   * through it, so its `NameRegistered` events carry the labels (as mainnet's ETHRegistrarController's do).
   */
  registrarController: Address;
}

interface PrebuiltArtifact {
  abi: Abi;
  bytecode: Hex;
}

/** Truffle build JSON shipped in the npm package (compiled by ENS with solc 0.5). */
function prebuilt(pkg: '@ensdomains/ens' | '@ensdomains/resolver', contract: string): PrebuiltArtifact {
  const json = JSON.parse(readFileSync(require.resolve(`${pkg}/build/contracts/${contract}.json`), 'utf8')) as {
    abi: Abi;
    bytecode: string;
  };
  if (!json.bytecode || json.bytecode === '0x') throw new Error(`${pkg} ${contract} has no bytecode`);
  return { abi: contract === 'ENSRegistry' ? withRegistryTransferFixed(json.abi) : json.abi, bytecode: json.bytecode as Hex };
}

/**
 * The ENS registry events, with mainnet's exact signatures (what the registry's bytecode emits;
 * decode logs with these), and the registrar controller's `NameRegistered`.
 */
export const ensEvents = parseAbi([
  'event NewOwner(bytes32 indexed node, bytes32 indexed label, address owner)',
  'event Transfer(bytes32 indexed node, address owner)',
  'event NewResolver(bytes32 indexed node, address resolver)',
  'event NewTTL(bytes32 indexed node, uint64 ttl)',
  'event NameRegistered(string name, bytes32 indexed label, address indexed owner, uint256 baseCost, uint256 premium, uint256 expires)',
]);

/**
 * `ENSRegistry.json` of `@ensdomains/ens` 0.6.2 declares `Transfer` with a stray second `owner`
 * input (`Transfer(bytes32,address,address)`); its bytecode emits `Transfer(bytes32 indexed node,
 * address owner)`, as mainnet's registry does. The ABI gets the event its bytecode emits.
 */
function withRegistryTransferFixed(abi: Abi): Abi {
  const transfer = ensEvents.find((e) => e.name === 'Transfer')!;
  return abi.map((item) => (item.type === 'event' && item.name === 'Transfer' ? transfer : item));
}

export const ensArtifacts = {
  registry: () => prebuilt('@ensdomains/ens', 'ENSRegistry'),
  reverseRegistrar: () => prebuilt('@ensdomains/ens', 'ReverseRegistrar'),
  publicResolver: () => prebuilt('@ensdomains/resolver', 'PublicResolver'),
};

export const ensAbi = {
  registry: (): Abi => ensArtifacts.registry().abi,
  reverseRegistrar: (): Abi => ensArtifacts.reverseRegistrar().abi,
  publicResolver: (): Abi => ensArtifacts.publicResolver().abi,
  universalResolver: (): Abi => artifact('UniversalResolver').abi,
  registrarController: (): Abi => artifact('DevEthRegistrarController').abi,
};

const ROOT: Hex = `0x${'0'.repeat(64)}`;

/**
 * Deploys ENS: registry (root owned by the deployer), public resolver, reverse registrar owning
 * `addr.reverse` (default resolver: the public resolver), the universal resolver viem calls, and
 * the registrar controller (admin: the deployer), which owns the `eth` TLD.
 */
export async function deployEns(d: Deployer): Promise<EnsContracts> {
  const registryArtifact = ensArtifacts.registry();
  const registry = await d.deploy(registryArtifact, []);
  const publicResolver = await d.deploy(ensArtifacts.publicResolver(), [registry]);
  const reverseRegistrar = await d.deploy(ensArtifacts.reverseRegistrar(), [registry, publicResolver]);
  const universalResolver = await d.deploy('UniversalResolver', [registry]);
  const registrarController = await d.deploy('DevEthRegistrarController', [registry, namehash('eth')]);
  const abi = registryArtifact.abi;
  await d.write(registry, abi, 'setSubnodeOwner', [ROOT, labelhash('reverse'), d.address]);
  await d.write(registry, abi, 'setSubnodeOwner', [namehash('reverse'), labelhash('addr'), reverseRegistrar]);
  await d.write(registry, abi, 'setSubnodeOwner', [ROOT, labelhash('eth'), registrarController]);
  return { registry, publicResolver, reverseRegistrar, universalResolver, registrarController };
}

export interface EnsNameRecords {
  /** The ETH address the name resolves to (addr record). */
  address: Address;
  /** Text records, e.g. `avatar` (a `data:` URI resolves offline), `url`, `com.twitter`. */
  texts?: Record<string, string>;
}

/**
 * The public resolver calls that write `records` for `name`: `setAddr(node, address)` then one
 * `setText(node, key, value)` per text record (the registrar controller's `data`).
 */
export function ensRecordCalls(name: string, records: EnsNameRecords): Hex[] {
  const node = namehash(name);
  const abi = ensAbi.publicResolver();
  return [
    encodeFunctionData({ abi, functionName: 'setAddr', args: [node, records.address] } as never),
    ...Object.entries(records.texts ?? {}).map(([key, value]) =>
      encodeFunctionData({ abi, functionName: 'setText', args: [node, key, value] } as never),
    ),
  ];
}

/** The label of a second-level `.eth` name (`ada.eth` → `ada`). */
export function ethLabel(name: string): string {
  const match = /^([^.]+)\.eth$/.exec(name);
  if (!match) throw new Error(`not a <label>.eth name: "${name}"`);
  return match[1]!;
}

/**
 * `register(label, owner, publicResolver, data)` on the registrar controller: the arguments for
 * registering `<label>.eth` to `owner` with `records` (send it from the deployer, the controller's admin).
 */
export function ensRegisterArgs(ens: EnsContracts, label: string, owner: Address, records: EnsNameRecords): readonly unknown[] {
  return [label, owner, ens.publicResolver, ensRecordCalls(`${label}.eth`, records)];
}

/**
 * Registers `<label>.eth` to `owner` through the registrar controller (the deployer is its admin),
 * with the public resolver and `records`: one transaction emitting the registry's `NewOwner`
 * (owner: the controller), the resolver's record events, the registry's `Transfer` to `owner`,
 * and the controller's `NameRegistered`.
 */
export async function registerEnsName(
  d: Deployer,
  ens: EnsContracts,
  label: string,
  owner: Address,
  records: EnsNameRecords,
): Promise<string> {
  await d.write(ens.registrarController, ensAbi.registrarController(), 'register', ensRegisterArgs(ens, label, owner, records));
  return `${label}.eth`;
}

/** Sets the primary (reverse) name of the clients' account through the reverse registrar. */
export async function setPrimaryEnsName(clients: DevnetClients, ens: EnsContracts, name: string): Promise<void> {
  const hash = await clients.wallet.writeContract({
    address: ens.reverseRegistrar,
    abi: ensAbi.reverseRegistrar(),
    functionName: 'setName',
    args: [name],
  } as never);
  const receipt = await clients.public.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== 'success') throw new Error(`setName(${name}) reverted`);
}
