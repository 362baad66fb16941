import { keccak256, toHex, type LocalAccount } from 'viem';
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';

/** A wallet derived from the seed and a role: deterministic, with a private key. */
export function seededAccount(seed: string, role: string): LocalAccount {
  return privateKeyToAccount(keccak256(toHex(`credit-devnet:${seed}:${role}`)));
}

/** The mnemonic's accounts with a part in the seeding. */
export interface SeedActors {
  /** 0: deployer, owner of tokens / feeds / ENS, and faucet. */
  deployer: LocalAccount;
  /** 7: receives a transfer from the healthy borrower. */
  friend: LocalAccount;
  /** 8: supplies the pools' stablecoin liquidity. */
  lp: LocalAccount;
  /** 9: liquidates. */
  liquidator: LocalAccount;
}

export function seedActors(mnemonic: string): SeedActors {
  const at = (addressIndex: number) => mnemonicToAccount(mnemonic, { addressIndex });
  return { deployer: at(0), friend: at(7), lp: at(8), liquidator: at(9) };
}
