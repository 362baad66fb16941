export { createCreditClient, type CreditClient, type CreditClientOptions, type CreditMethods, type CreditResult } from './credit-client';
export { CreditApiError, type ErrorStatus } from './credit-api-error';
export type { RetryPolicy } from './retry-policy';
export type { OperationReply, OperationRequest } from '@credit/contracts/agent-tools';
export type { ErrorCode } from '@credit/contracts/errors';
