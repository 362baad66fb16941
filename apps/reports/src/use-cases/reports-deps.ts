import type { AddressResolver } from '@credit/wallet/address-resolver';
import type { WalletReader } from '@credit/wallet/wallet-reader';

/** What every report use case works with. */
export interface ReportsDeps {
  resolver: Pick<AddressResolver, 'resolveOne' | 'resolveMany'>;
  /** The shared wallet reading (cache, singleflight, index freshness, attestations), as scoring uses it. */
  reader: Pick<WalletReader, 'readWallets'>;
  /** The chains the service reads, in registry order (a chain route names one of them). */
  chains: readonly { id: number; name: string }[];
}

/** Injection token of the use cases' dependencies (provided by `ReportsModule.forRoot`). */
export const REPORTS_DEPS = Symbol('REPORTS_DEPS');
