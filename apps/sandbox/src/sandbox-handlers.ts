import { handlerTableProvider } from '@credit/rpc/handler-table';
import { Clock } from './clock';
import { identityAttestations } from './use-cases/identity-attestations';
import { reportAggregate } from './use-cases/report-aggregate';
import { reportChain } from './use-cases/report-chain';
import { reportChainTotalUsd } from './use-cases/report-chain-total-usd';
import { reportEnhanced } from './use-cases/report-enhanced';
import { reportFull } from './use-cases/report-full';
import { reportSummary } from './use-cases/report-summary';
import { reportTotalUsd } from './use-cases/report-total-usd';
import { reportTotalUsdAggregate } from './use-cases/report-total-usd-aggregate';
import { scoreAddress } from './use-cases/score-address';
import { scoreAggregate } from './use-cases/score-aggregate';
import { scoreBatch } from './use-cases/score-batch';
import { scoreEnhanced } from './use-cases/score-enhanced';
import { scoreHistory } from './use-cases/score-history';

/** Every `credit.sandbox.*` subject and its use case; the clock is the one input besides the request. */
export const SandboxHandlers = handlerTableProvider('sandbox', Clock, (clock: Clock) => ({
  'credit.sandbox.score.address.v1': (request) => scoreAddress(request, clock.now()),
  'credit.sandbox.score.aggregate.v1': (request) => scoreAggregate(request, clock.now()),
  'credit.sandbox.score.batch.v1': (request) => scoreBatch(request, clock.now()),
  'credit.sandbox.score.enhanced.v1': (request) => scoreEnhanced(request, clock.now()),
  'credit.sandbox.score.history.v1': (request) => scoreHistory(request, clock.now()),
  'credit.sandbox.report.full.v1': (request) => reportFull(request, clock.now()),
  'credit.sandbox.report.enhanced.v1': (request) => reportEnhanced(request, clock.now()),
  'credit.sandbox.report.aggregate.v1': (request) => reportAggregate(request, clock.now()),
  'credit.sandbox.report.summary.v1': (request) => reportSummary(request, clock.now()),
  'credit.sandbox.report.chain.v1': (request) => reportChain(request, clock.now()),
  'credit.sandbox.report.total-usd.v1': (request) => reportTotalUsd(request, clock.now()),
  'credit.sandbox.report.total-usd-aggregate.v1': (request) => reportTotalUsdAggregate(request, clock.now()),
  'credit.sandbox.report.chain-total-usd.v1': (request) => reportChainTotalUsd(request, clock.now()),
  'credit.sandbox.identity.attestations.v1': (request) => identityAttestations(request, clock.now()),
}));
