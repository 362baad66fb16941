import { parseAbiItem, type Address } from 'viem';
import type { ChainClient } from '@credit/chain/clients';
import type { DetectQueue } from '@credit/webhook-delivery/detect-queue';
import type { IndexerJobPayload } from './job-catalog';

/** A Chainlink AggregatorV3 round's answer (the devnet's MockAggregatorV3 emits it on every update). */
const answerUpdatedEvent = parseAbiItem('event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)');

/** The chain's configured USD price feeds: the native coin's and each token's. */
function priceFeedsOf(chain: ChainClient): Address[] {
  return [...new Set([chain.config.nativePriceFeed, ...chain.config.tokens.map((t) => t.priceFeed)])];
}

/**
 * After a range is committed: queues its score-change detection (issue 38; decision 38), noting
 * whether a price feed answered anew in it (one `eth_getLogs` over the chain's feeds), since a price
 * moves the health of every position priced with it, not only of the wallets active in the range.
 */
export async function queueDetection(
  chain: ChainClient,
  queue: Pick<DetectQueue, 'add'>,
  range: IndexerJobPayload<'range'>,
): Promise<void> {
  const updates = await chain.client.getLogs({
    address: priceFeedsOf(chain),
    event: answerUpdatedEvent,
    fromBlock: BigInt(range.fromBlock),
    toBlock: BigInt(range.toBlock),
  });
  await queue.add({ ...range, priceFeedUpdated: updates.length > 0 });
}
