import { Queue } from 'bullmq';
import { Webhook } from 'standardwebhooks';
import { encodeFunctionData, getAddress, type Address, type Hex } from 'viem';
import { redisOptionsFromUrl } from '@credit/config/redis-options';
import { devnetAbi } from '@credit/devnet/abis';
import { rpc } from '@credit/devnet/json-rpc';
import { startReferenceStack, REDIS_URL, type ReferenceStack } from '@credit/test-stack/reference-stack';
import { http, NATS_URL } from '@credit/test-stack/test-stack';
import { DETECT_QUEUE, type DetectJob } from '@credit/webhook-delivery/detect-queue';
import { webhooksConfig } from '@credit/webhooks/config';
import { startDeliveryWorker, type RunningDeliveryWorker } from '@credit/webhooks/delivery-worker';
import { startDetector, type RunningDetector } from '@credit/webhooks/detect-worker';
import { silentLogger } from '@credit/webhooks/logger';
import { eventually, startWebhookReceiver, type WebhookReceiver } from '@credit/testing/webhook-receiver';

/**
 * Issue 38, score-change webhooks on the reference world: the gateway (webhook routes), scoring,
 * the indexer following the devnet, and apps/webhooks' detector and delivery worker, all real; a
 * local HTTP receiver is the customer's endpoint. Nothing here waits a fixed time: "nothing more"
 * is asserted once the detection of the range holding the transaction has completed.
 */
jest.setTimeout(180_000);

/** The chain the healthy borrower's position is on (the seed's first scoring chain). */
const CHAIN_ID = 1;
const CONFIRMATIONS = 2;

let reference: ReferenceStack;
let receiver: WebhookReceiver;
let delivery: RunningDeliveryWorker;
let detector: RunningDetector;
let detections: Queue<DetectJob>;
let rpcUrl: string;
let borrower: Address;

const api = (path: string, init: Parameters<typeof http>[2] = {}) => http(reference.stack.url, path, { key: reference.key, ...init });
const contracts = () => reference.world.devnet.state.contracts[String(CHAIN_ID)]!;

/** Sends a transaction as `from` (anvil impersonation), then buries it under the indexer's confirmations; its block. */
async function sendAs(from: Address, to: Address, data: Hex): Promise<bigint> {
  await rpc(rpcUrl, 'anvil_impersonateAccount', [from]);
  const hash = await rpc<Hex>(rpcUrl, 'eth_sendTransaction', [{ from, to, data, gas: '0x1e8480' }]);
  await rpc(rpcUrl, 'anvil_stopImpersonatingAccount', [from]);
  const receipt = await eventually('the receipt', () =>
    rpc<{ status: Hex; blockNumber: Hex } | null>(rpcUrl, 'eth_getTransactionReceipt', [hash]).then((r) => r ?? undefined),
  );
  expect(receipt.status).toBe('0x1');
  await rpc(rpcUrl, 'anvil_mine', [`0x${CONFIRMATIONS.toString(16)}`]);
  return BigInt(receipt.blockNumber);
}

/** Borrows `share` of what the borrower may still borrow (its available borrows, or the pool's DAI, whichever is less) as DAI. */
async function borrow(share: bigint): Promise<bigint> {
  const pool = contracts().lendingPool!.address;
  const dai = contracts().tokens.DAI!.address;
  const call = async (to: Address, data: Hex) => BigInt((await rpc<Hex>(rpcUrl, 'eth_call', [{ to, data }, 'latest'])).slice(0, 66));
  const accountData = await rpc<Hex>(rpcUrl, 'eth_call', [
    { to: pool, data: encodeFunctionData({ abi: devnetAbi('LendingPool'), functionName: 'getUserAccountData', args: [borrower] }) },
    'latest',
  ]);
  // availableBorrowsBase: the third word, USD with 8 decimals; DAI is a dollar, 18 decimals
  const available = BigInt(`0x${accountData.slice(2 + 128, 2 + 192)}`) * 10n ** 10n;
  const liquidity = await call(dai, encodeFunctionData({ abi: devnetAbi('DevToken'), functionName: 'balanceOf', args: [pool] }));
  const amount = ((available < liquidity ? available : liquidity) * share) / 100n;
  const data = encodeFunctionData({ abi: devnetAbi('LendingPool'), functionName: 'borrow', args: [dai, amount, 2n, 0, borrower] });
  return sendAs(borrower, pool, data);
}

/** Sets the ETH / USD feed's answer to `percent` of what it is, as its owner. */
async function movePrice(percent: bigint): Promise<bigint> {
  const feed = contracts().priceFeeds['ETH / USD']!;
  const abi = devnetAbi('MockAggregatorV3');
  const word = async (functionName: string) =>
    BigInt(await rpc<Hex>(rpcUrl, 'eth_call', [{ to: feed, data: encodeFunctionData({ abi, functionName } as never) }, 'latest']));
  const owner = getAddress(`0x${(await word('owner')).toString(16).padStart(40, '0')}`);
  const answer = ((await word('latestAnswer')) * percent) / 100n;
  return sendAs(owner, feed, encodeFunctionData({ abi, functionName: 'setAnswer', args: [answer] }));
}

/** Resolves once a detection covering `block` of the chain has completed (nothing more can come from it). */
async function detected(block: bigint): Promise<void> {
  await eventually(`the detection of block ${block}`, async () => {
    const done = await detections.getJobs(['completed']);
    return done.some((j) => j.data.chainId === CHAIN_ID && BigInt(j.data.fromBlock) <= block && BigInt(j.data.toBlock) >= block)
      ? true
      : undefined;
  });
}

async function createWebhook(minChange: number): Promise<{ id: string; secret: string }> {
  const created = await api('/api/v2/webhooks', {
    method: 'POST',
    body: { url: receiver.url, addresses: [borrower], min_change: minChange },
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; secret: string };
}

const scoreChangePosts = () => receiver.received.filter((r) => (JSON.parse(r.body) as { type: string }).type === 'score.changed');
/** Each score.changed event's first POST, in order: a retried event counts once. */
const scoreChanges = () =>
  scoreChangePosts().filter((post, i, all) => all.findIndex((p) => p.headers['webhook-id'] === post.headers['webhook-id']) === i);

beforeAll(async () => {
  reference = await startReferenceStack(['scoring'], { gatewayEnv: { WEBHOOK_ALLOW_PRIVATE: '1' } });
  rpcUrl = reference.world.devnet.chains.find((c) => c.spec.id === CHAIN_ID)!.rpcUrl;
  borrower = getAddress(reference.world.devnet.state.cast.healthy_borrower!.address);
  receiver = await startWebhookReceiver();
  const config = webhooksConfig({
    DATABASE_URL: reference.stack.databaseUrl,
    REDIS_URL,
    NATS_URL,
    NATS_SUBJECT_PREFIX: reference.stack.prefix,
    INDEXER_QUEUE_PREFIX: reference.world.queuePrefix,
    HEALTH_PORT: '0',
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE: '1',
  });
  delivery = await startDeliveryWorker(config, silentLogger);
  detector = await startDetector(config, silentLogger);
  detections = new Queue<DetectJob>(DETECT_QUEUE, { connection: redisOptionsFromUrl(REDIS_URL), prefix: reference.world.queuePrefix });
});

afterAll(async () => {
  await detections?.close();
  await detector?.close();
  await delivery?.close();
  await receiver?.close();
  await reference?.close();
});

describe('score.changed on the devnet', () => {
  it('a borrow moves the watched score: one signed event, equal to the API’s score, sent again under its id after a 500; a deleted webhook gets nothing more', async () => {
    const webhook = await createWebhook(1);
    const before = await api(`/api/v2/score/address/${borrower}`);
    // the receiver fails the first score.changed POST; the shipped retry schedule sends it again
    receiver.answer((post) => (scoreChangePosts().indexOf(post) === 0 ? 500 : 204));
    const block = await borrow(90n);

    const retried = await eventually('a score.changed delivery and its retry', () =>
      scoreChangePosts().length >= 2 ? scoreChangePosts() : undefined,
    );
    const [post, again] = retried;
    expect(again!.headers['webhook-id']).toBe(post!.headers['webhook-id']);
    expect(new Webhook(webhook.secret).verify(again!.body, again!.headers)).toEqual(
      new Webhook(webhook.secret).verify(post!.body, post!.headers),
    );
    const event = new Webhook(webhook.secret).verify(post!.body, post!.headers) as {
      type: string;
      id: string;
      sequence: number;
      data: {
        address: string;
        previous: { score: number };
        current: { score: number; decile: number; range: string };
        factors_changed: string[];
      };
    };
    expect(post!.headers['webhook-id']).toBe(event.id);
    const now = await api(`/api/v2/score/address/${borrower}`);
    expect(now.status).toBe(200);
    expect(event).toMatchObject({
      type: 'score.changed',
      sequence: 1,
      data: {
        address: borrower,
        previous: { score: before.body.score },
        current: { score: now.body.score, decile: now.body.decile, range: now.body.range },
      },
    });
    expect(event.data.current.score).not.toBe(event.data.previous.score);
    expect(event.data.factors_changed.length).toBeGreaterThan(0);
    await detected(block);
    expect(scoreChanges()).toHaveLength(1);
    const deliveries = await api(`/api/v2/webhooks/${webhook.id}/deliveries`);
    const attempts = (deliveries.body as { deliveries: { event_id: string; status_code: number | null }[] }).deliveries.filter(
      (d) => d.event_id === event.id,
    );
    expect(attempts.map((a) => a.status_code).sort()).toEqual([204, 500]);

    expect((await api(`/api/v2/webhooks/${webhook.id}`, { method: 'DELETE' })).status).toBe(204);
    await detected(await borrow(50n));
    expect(scoreChanges()).toHaveLength(1);
    expect(scoreChangePosts()).toHaveLength(2);
  });

  it('a price-feed drop moves the borrower’s health: the watched address is scored again without any activity of its own', async () => {
    const webhook = await createWebhook(1);
    const block = await movePrice(60n);

    const post = await eventually('a second score.changed delivery', () => scoreChanges()[1]);
    const event = new Webhook(webhook.secret).verify(post.body, post.headers) as {
      sequence: number;
      data: { address: string; previous: { score: number }; current: { score: number } };
    };
    const now = await api(`/api/v2/score/address/${borrower}`);
    expect(event).toMatchObject({ sequence: 1, data: { address: borrower, current: { score: now.body.score } } });
    expect(event.data.current.score).toBeLessThan(event.data.previous.score);
    await detected(block);
    expect(scoreChanges()).toHaveLength(2);
  });
});
