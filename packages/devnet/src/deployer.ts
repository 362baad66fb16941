import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  getAddress,
  getContractAddress,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type PublicClient,
  type TestClient,
  type Transport,
  type WalletClient,
} from 'viem';
import { keepAliveHttp } from '@credit/http-client/keep-alive-http';
import { artifact, type ArtifactFile } from './compile';

export interface DevnetClients {
  chain: Chain;
  public: PublicClient<Transport, Chain>;
  wallet: WalletClient<Transport, Chain, Account>;
  test: TestClient<'anvil', Transport, Chain>;
}

/**
 * viem clients for one devnet chain, polling fast (anvil mines at once). A request may take a
 * minute: a world's multicall of every position, on a machine loaded by tests beside it, can
 * outlast viem's 10 s, and a seeding that stops there is lost whole.
 */
export function devnetClients(chain: Chain, account: Account, rpcUrl = chain.rpcUrls.default.http[0]!): DevnetClients {
  const transport = keepAliveHttp(rpcUrl, { batch: false, retryCount: 0, timeout: 60_000 });
  return {
    chain,
    public: createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient<Transport, Chain>,
    wallet: createWalletClient({ chain, transport, account, pollingInterval: 50 }),
    test: createTestClient({ chain, transport, mode: 'anvil', pollingInterval: 50 }),
  };
}

/**
 * Sends a deployer's transactions one after another and checks every receipt. Contract addresses
 * follow from the deployer's nonce, so the same sequence on a fresh chain gives the same addresses.
 */
export class Deployer {
  private nextTimestamp: number | undefined;

  /** With `firstTimestamp` (anvil only), each transaction's block is stamped one second after the previous one. */
  constructor(
    readonly clients: DevnetClients,
    readonly artifacts: ArtifactFile,
    firstTimestamp?: number,
  ) {
    this.nextTimestamp = firstTimestamp;
  }

  private async pinTime(): Promise<void> {
    if (this.nextTimestamp === undefined) return;
    await this.clients.test.setNextBlockTimestamp({ timestamp: BigInt(this.nextTimestamp++) });
  }

  get address(): Address {
    return this.clients.wallet.account.address;
  }

  /** Deploys a compiled contract (by name) or a given artifact (e.g. prebuilt ENS bytecode). */
  async deploy(contract: string | { abi: Abi; bytecode: Hex }, args: readonly unknown[] = []): Promise<Address> {
    const { abi, bytecode } = typeof contract === 'string' ? artifact(contract, this.artifacts) : contract;
    const contractName = typeof contract === 'string' ? contract : 'contract';
    const nonce = await this.clients.public.getTransactionCount({ address: this.address, blockTag: 'pending' });
    await this.pinTime();
    const hash = await this.clients.wallet.deployContract({ abi, bytecode, args, nonce } as never);
    const receipt = await this.confirm(hash, `deploy ${contractName}`);
    // anvil reports contractAddress in lower case; the world's addresses are checksummed.
    return getAddress(receipt.contractAddress ?? getContractAddress({ from: this.address, nonce: BigInt(nonce) }));
  }

  async write(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = [], value?: bigint): Promise<Hash> {
    await this.pinTime();
    const hash = await this.clients.wallet.writeContract({ address, abi, functionName, args, value } as never);
    await this.confirm(hash, functionName);
    return hash;
  }

  /** Installs a contract's runtime code at a fixed address (anvil_setCode). */
  async setCode(address: Address, contractName: string): Promise<void> {
    await this.clients.test.setCode({ address, bytecode: artifact(contractName, this.artifacts).deployedBytecode as Hex });
  }

  async confirm(hash: Hash, what: string) {
    const receipt = await this.clients.public.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 60_000 });
    if (receipt.status !== 'success') throw new Error(`${what} reverted (${hash})`);
    return receipt;
  }
}
