import { DomainError } from '@credit/contracts/errors';
import type { GatewayConfig } from '../src/config';
import { AccountLanes } from '../src/routes/account-lanes';

/** A send that answers when told to. */
function pending<T>(value: T) {
  let answer!: () => void;
  const started = { value: false };
  const send = () => {
    started.value = true;
    return new Promise<T>((resolve) => (answer = () => resolve(value)));
  };
  return { send, started, answer: () => answer() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('AccountLanes', () => {
  const lanes = () => new AccountLanes({ ACCOUNT_MAX_INFLIGHT: 2, ACCOUNT_MAX_QUEUED: 100 } as GatewayConfig);

  it("queues one account's burst beyond its lane while another account's request goes out at once", async () => {
    const l = lanes();
    const burst = Array.from({ length: 5 }, (_, i) => pending(i));
    const answers = burst.map((p) => l.run('acc_a', 10_000, p.send));
    await tick();
    expect(burst.map((p) => p.started.value)).toEqual([true, true, false, false, false]);
    const other = pending('b');
    const otherAnswer = l.run('acc_b', 10_000, other.send);
    await tick();
    expect(other.started.value).toBe(true);
    other.answer();
    await expect(otherAnswer).resolves.toBe('b');
    // Each answer lets the next of the burst start, in order.
    for (let i = 0; i < 5; i++) {
      burst[i]!.answer();
      await tick();
      expect(burst.map((p) => p.started.value).filter(Boolean)).toHaveLength(Math.min(i + 3, 5));
    }
    await expect(Promise.all(answers)).resolves.toEqual([0, 1, 2, 3, 4]);
  });

  it('answers 503 with a retry hint only for a request that could not start within its wait, and never sends it', async () => {
    const l = lanes();
    const busy = [pending(1), pending(2)];
    const running = busy.map((p) => l.run('acc_a', 10_000, p.send));
    const late = pending(3);
    const refused = l.run('acc_a', 20, late.send);
    await expect(refused).rejects.toMatchObject({ code: 'service_unavailable', data: { retry_after: 1 } });
    await expect(refused).rejects.toBeInstanceOf(DomainError);
    busy.forEach((p) => p.answer());
    await Promise.all(running);
    expect(late.started.value).toBe(false);
  });
});
