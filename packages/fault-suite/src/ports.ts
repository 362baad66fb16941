/** Free ports and open-port probes: the ones @credit/testing's private NATS uses. */
export { freePort, portIsOpen } from '@credit/testing/private-nats';

/** Polls until `probe` answers true; throws after `timeoutMs` with `what` in the message. */
export async function waitUntil(what: string, probe: () => Promise<boolean>, timeoutMs: number, intervalMs = 100): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
