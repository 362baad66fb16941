/**
 * A setting with a default for every chain and per-chain overrides, written
 * `<default>[,<chainId>=<value>…]` or `<chainId>=<value>,…`: `CONFIRMATIONS=12,8453=5` waits 12
 * blocks everywhere except Base. Values are non-negative integers.
 */
export interface PerChainSetting {
  fallback: number;
  byChain: ReadonlyMap<number, number>;
}

export function parsePerChainSetting(text: string, fallback: number): PerChainSetting | string {
  const byChain = new Map<number, number>();
  let fallbackValue = fallback;
  const parts = text
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  for (const part of parts) {
    const match = /^(?:(\d+)\s*=\s*)?(\d+)$/.exec(part);
    if (!match) return `"${part}" is neither <n> nor <chainId>=<n>`;
    const value = Number(match[2]);
    if (!Number.isSafeInteger(value)) return `"${part}": value out of range`;
    if (match[1] === undefined) fallbackValue = value;
    else byChain.set(Number(match[1]), value);
  }
  return { fallback: fallbackValue, byChain };
}

export function settingFor(setting: PerChainSetting, chainId: number): number {
  return setting.byChain.get(chainId) ?? setting.fallback;
}
