import { parseEther, parseUnits, toHex, type Account, type Address } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { devnetAbi } from './abis';
import { DEFAULT_MNEMONIC } from './anvil';
import type { ChainContracts } from './deploy';
import { devnetClients } from './deployer';
import type { DevnetChainHandle } from './devnet';
import { rpc } from './json-rpc';
import type { DevnetKeyAccount, DevnetPayments } from './state-file';

/**
 * The payment chain's accounts (x402): DEVNET-ONLY keys derived from the devnet mnemonic at fixed
 * indices far above anvil's ten funded accounts and every account the seeding uses, so they are
 * the same on every start and every fresh world and take no part in the scoring chains' history.
 * With the default mnemonic (`test test … junk`, public): payer index 900, facilitator 901,
 * receiver (payTo) 902, and the facilitator's further signers 903–905 (issue 37: four signers,
 * each its own settlement queue and nonce sequence).
 */
export const PAYER_ACCOUNT_INDEX = 900;
export const FACILITATOR_ACCOUNT_INDEX = 901;
export const RECEIVER_ACCOUNT_INDEX = 902;
export const FURTHER_FACILITATOR_ACCOUNT_INDICES = [903, 904, 905] as const;

/** What a fresh world gives the payer: USDC (whole units, 6 decimals) and ETH. */
export const PAYER_USDC = '1000000';
export const PAYER_ETH = '10';
/** Each facilitator signer's ETH, for the settlements' gas. */
export const FACILITATOR_ETH = '1000';

/** x402 v1 names networks from a closed list; the devnet's payment chain borrows Base Sepolia's. */
const V1_NETWORKS: Readonly<Record<number, string>> = { 84532: 'base-sepolia', 8453: 'base' };

export interface PaymentAccounts {
  /** Signs payments (EIP-3009 authorizations); `state.cast.payer`. */
  payer: DevnetKeyAccount;
  /** Sends the settlement transactions; `state.payments.facilitator`. */
  facilitator: DevnetKeyAccount;
  /** Every signer of the facilitator, `facilitator` first; `state.payments.facilitators`. */
  facilitators: DevnetKeyAccount[];
  /** Receives the payments; `state.payments.payTo`. */
  payTo: Address;
}

function keyAccount(mnemonic: string, addressIndex: number): DevnetKeyAccount {
  const account = mnemonicToAccount(mnemonic, { addressIndex });
  const privateKey = account.getHdKey().privateKey;
  if (!privateKey) throw new Error(`no private key at index ${addressIndex} of the mnemonic`);
  return { address: account.address, privateKey: toHex(privateKey) };
}

/** The payment chain's devnet-only accounts (deterministic: see `PAYER_ACCOUNT_INDEX`). */
export function paymentAccounts(mnemonic = DEFAULT_MNEMONIC): PaymentAccounts {
  return {
    payer: keyAccount(mnemonic, PAYER_ACCOUNT_INDEX),
    facilitator: keyAccount(mnemonic, FACILITATOR_ACCOUNT_INDEX),
    facilitators: [FACILITATOR_ACCOUNT_INDEX, ...FURTHER_FACILITATOR_ACCOUNT_INDICES].map((index) => keyAccount(mnemonic, index)),
    payTo: mnemonicToAccount(mnemonic, { addressIndex: RECEIVER_ACCOUNT_INDEX }).address,
  };
}

/** `state.payments` for the payment chain at `rpcUrl` with its deployed contracts. */
export function paymentsState(chain: { id: number; rpcUrl: string }, contracts: ChainContracts, accounts: PaymentAccounts): DevnetPayments {
  const usdc = contracts.tokens.USDC;
  if (!usdc?.eip712Version) throw new Error(`payment chain ${chain.id} has no EIP-3009 USDC`);
  const v1Network = V1_NETWORKS[chain.id];
  if (v1Network === undefined)
    throw new Error(`payment chain ${chain.id} has no x402 v1 network name (known: ${Object.keys(V1_NETWORKS).join(', ')})`);
  return {
    chainId: chain.id,
    network: `eip155:${chain.id}`,
    v1Network,
    rpcUrl: chain.rpcUrl,
    token: usdc.address,
    tokenName: usdc.name,
    tokenVersion: usdc.eip712Version,
    decimals: usdc.decimals,
    payTo: accounts.payTo,
    facilitator: accounts.facilitator,
    facilitators: accounts.facilitators,
  };
}

/**
 * Funds a fresh world's payment accounts, on the payment chain only: ETH for the payer
 * (`anvil_setBalance`: no block), and the payer's USDC minted by the token's owner (one
 * transaction); the facilitator's signers are funded on every start (`fundFacilitators`). The
 * receiver gets nothing. It touches no scoring chain and no randomness of the seeding, so the
 * scoring chains are the same with or without it.
 */
export async function fundPaymentAccounts(
  chain: DevnetChainHandle,
  contracts: ChainContracts,
  owner: Account,
  accounts: PaymentAccounts,
): Promise<void> {
  if (chain.spec.role !== 'payment') throw new Error(`chain ${chain.spec.id} is not the payment chain`);
  const usdc = contracts.tokens.USDC;
  if (!usdc) throw new Error(`payment chain ${chain.spec.id} has no USDC`);
  await rpc(chain.rpcUrl, 'anvil_setBalance', [accounts.payer.address, toHex(parseEther(PAYER_ETH))]);
  const clients = devnetClients(chain.chain, owner, chain.rpcUrl);
  const hash = await clients.wallet.writeContract({
    address: usdc.address,
    abi: devnetAbi('Usdc3009'),
    functionName: 'mint',
    args: [accounts.payer.address, parseUnits(PAYER_USDC, usdc.decimals)],
    account: owner,
    chain: chain.chain,
  });
  const receipt = await clients.public.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== 'success') throw new Error(`minting the payer's USDC on chain ${chain.spec.id} reverted (${hash})`);
}

/**
 * Gives each of the facilitator's signers FACILITATOR_ETH for gas on the payment chain
 * (`anvil_setBalance`: no block, nothing else moves), on every start: a saved world built before a
 * signer was added gets it without a rebuild, and what earlier runs spent on gas is topped up.
 */
export async function fundFacilitators(chain: DevnetChainHandle, accounts: Pick<PaymentAccounts, 'facilitators'>): Promise<void> {
  if (chain.spec.role !== 'payment') throw new Error(`chain ${chain.spec.id} is not the payment chain`);
  for (const signer of accounts.facilitators) {
    await rpc(chain.rpcUrl, 'anvil_setBalance', [signer.address, toHex(parseEther(FACILITATOR_ETH))]);
  }
}
