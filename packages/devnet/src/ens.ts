import { readFileSync } from 'node:fs';
import { labelhash, namehash, type Abi, type Address, type Hex } from 'viem';
import { artifact } from './compile';
import type { Deployer, DevnetClients } from './deployer';

/** ENS on a devnet chain: the registry and reverse registrar from `@ensdomains/ens`, the public resolver from `@ensdomains/resolver`, and our universal resolver. */
export interface EnsContracts {
  registry: Address;
  publicResolver: Address;
  reverseRegistrar: Address;
  universalResolver: Address;
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
  return { abi: json.abi, bytecode: json.bytecode as Hex };
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
};

const ROOT: Hex = `0x${'0'.repeat(64)}`;

/**
 * Deploys ENS: registry (root owned by the deployer), public resolver, reverse registrar owning
 * `addr.reverse` (default resolver: the public resolver), the `eth` TLD owned by the deployer, and
 * the universal resolver viem calls.
 */
export async function deployEns(d: Deployer): Promise<EnsContracts> {
  const registryArtifact = ensArtifacts.registry();
  const registry = await d.deploy(registryArtifact, []);
  const publicResolver = await d.deploy(ensArtifacts.publicResolver(), [registry]);
  const reverseRegistrar = await d.deploy(ensArtifacts.reverseRegistrar(), [registry, publicResolver]);
  const universalResolver = await d.deploy('UniversalResolver', [registry]);
  const abi = registryArtifact.abi;
  await d.write(registry, abi, 'setSubnodeOwner', [ROOT, labelhash('reverse'), d.address]);
  await d.write(registry, abi, 'setSubnodeOwner', [namehash('reverse'), labelhash('addr'), reverseRegistrar]);
  await d.write(registry, abi, 'setSubnodeOwner', [ROOT, labelhash('eth'), d.address]);
  return { registry, publicResolver, reverseRegistrar, universalResolver };
}

export interface EnsNameRecords {
  /** The ETH address the name resolves to (addr record). */
  address: Address;
  /** Text records, e.g. `avatar` (a `data:` URI resolves offline), `url`, `com.twitter`. */
  texts?: Record<string, string>;
}

/**
 * Registers `<label>.eth` (the deployer owns `eth`), sets its resolver and records, then hands the
 * name to `owner`.
 */
export async function registerEnsName(
  d: Deployer,
  ens: EnsContracts,
  label: string,
  owner: Address,
  records: EnsNameRecords,
): Promise<string> {
  const name = `${label}.eth`;
  const node = namehash(name);
  const registryAbi = ensAbi.registry();
  const resolverAbi = ensAbi.publicResolver();
  await d.write(ens.registry, registryAbi, 'setSubnodeRecord', [namehash('eth'), labelhash(label), d.address, ens.publicResolver, 0n]);
  await d.write(ens.publicResolver, resolverAbi, 'setAddr', [node, records.address]);
  for (const [key, value] of Object.entries(records.texts ?? {})) {
    await d.write(ens.publicResolver, resolverAbi, 'setText', [node, key, value]);
  }
  if (owner.toLowerCase() !== d.address.toLowerCase()) await d.write(ens.registry, registryAbi, 'setOwner', [node, owner]);
  return name;
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
