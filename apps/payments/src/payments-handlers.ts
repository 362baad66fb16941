import { handlerTableProvider } from '@credit/rpc/handler-table';
import { PAYMENTS_DEPS, type PaymentsDeps } from './use-cases/payments-deps';
import { releasePayment } from './use-cases/release-payment';
import { settlePayment } from './use-cases/settle-payment';
import { verifyPayment } from './use-cases/verify-payment';

/** Every `credit.payments.*` subject and its use case. */
export const PaymentsHandlers = handlerTableProvider('payments', PAYMENTS_DEPS, (deps: PaymentsDeps) => ({
  'credit.payments.verify.v1': (request) => verifyPayment(request, deps),
  'credit.payments.settle.v1': (request) => settlePayment(request, deps),
  'credit.payments.release.v1': (request) => releasePayment(request, deps),
}));
