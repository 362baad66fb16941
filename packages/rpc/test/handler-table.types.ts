/**
 * Type test, checked by `pnpm typecheck` (tsc over src and test): a service's handler table must
 * hold exactly the service's subjects. Each `@ts-expect-error` below fails the typecheck if the
 * line after it ever compiles.
 */
import type { HandlerTable } from '../src/handler-table';
import { validScore } from './support';

const address = (request: { address: string }) => validScore(request.address);
const aggregate = () => ({ ...validScore(), address: [validScore().address] });
const batch = () => ({ scores: [], count: 0 });
const watch = () => ({ scores: [] });
const history = (request: { address: string }) => ({
  address: validScore(request.address).address,
  model_version: 'andromeda_1.0' as const,
  points: [],
});

export const complete: HandlerTable<'scoring'> = {
  'credit.score.address.v1': address,
  'credit.score.aggregate.v1': aggregate,
  'credit.score.batch.v1': batch,
  'credit.score.enhanced.v1': address,
  'credit.score.watch.v1': watch,
  'credit.score.history.v1': history,
};

// @ts-expect-error a subject of the service without its handler
export const missing: HandlerTable<'scoring'> = {
  'credit.score.address.v1': address,
  'credit.score.aggregate.v1': aggregate,
  'credit.score.batch.v1': batch,
  'credit.score.enhanced.v1': address,
  'credit.score.watch.v1': watch,
};

export const extra: HandlerTable<'scoring'> = {
  ...complete,
  // @ts-expect-error another service's subject
  'credit.sandbox.score.address.v1': address,
};

export const wrongReply: HandlerTable<'scoring'> = {
  ...complete,
  // @ts-expect-error a handler whose reply is not the subject's
  'credit.score.batch.v1': address,
};
