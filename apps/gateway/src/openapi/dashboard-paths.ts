import type { z } from 'zod';
import {
  CreatedKeyReply,
  CreateKeyBody,
  CsrfReply,
  DashboardUsageReply,
  ForgotPasswordBody,
  ForgotPasswordReply,
  KeyItem,
  KeysReply,
  ResendVerificationBody,
  ResendVerificationReply,
  ResetPasswordBody,
  ResetPasswordReply,
  SessionReply,
  SignInBody,
  SignUpBody,
  SignUpReply,
  VerifyEmailBody,
  VerifyEmailReply,
} from '@credit/contracts/schemas/dashboard';
import { CreatedWebhookReply, CreateWebhookBody, DashboardWebhooksReply, TestWebhookReply } from '@credit/contracts/schemas/webhooks';

type Json = Record<string, unknown>;

interface Tools {
  json(schema: unknown): Json;
  schemaOf(schema: z.ZodType, io: 'input' | 'output'): Json;
  errorResponses: Record<string, Json>;
}

interface DashboardRoute {
  method: 'get' | 'post' | 'delete';
  path: string;
  id: string;
  summary: string;
  status: number;
  reply?: z.ZodType;
  body?: z.ZodType;
  /** Needs the session cookie (every route but the sign-in steps). */
  session: boolean;
  /** A state change: sends `X-CSRF-Token`. */
  csrf: boolean;
}

/** The dashboard's JSON endpoints (docs/API.md §4.6), in the order a user meets them. */
const ROUTES: DashboardRoute[] = [
  {
    method: 'get',
    path: '/dashboard/api/csrf',
    id: 'dashboardCsrf',
    summary: 'A CSRF token for the sign-in steps (also set as the credit_csrf cookie)',
    status: 200,
    reply: CsrfReply,
    session: false,
    csrf: false,
  },
  {
    method: 'post',
    path: '/dashboard/api/signup',
    id: 'dashboardSignUp',
    summary:
      'Sign up with an email only: a link is mailed after the answer, the password is chosen on its page (the same answer for every email)',
    status: 202,
    body: SignUpBody,
    reply: SignUpReply,
    session: false,
    csrf: true,
  },
  {
    method: 'post',
    path: '/dashboard/api/verify',
    id: 'dashboardVerifyEmail',
    summary:
      "The sign-up link's page, sent with the password its mailbox owner chose: creates the account, or claims the operator's (rate limited)",
    status: 200,
    body: VerifyEmailBody,
    reply: VerifyEmailReply,
    session: false,
    csrf: true,
  },
  {
    method: 'post',
    path: '/dashboard/api/signin',
    id: 'dashboardSignIn',
    summary: 'Sign in with email and password (rate limited): sets the session cookie',
    status: 200,
    body: SignInBody,
    reply: SessionReply,
    session: false,
    csrf: true,
  },
  {
    method: 'post',
    path: '/dashboard/api/verification/resend',
    id: 'dashboardResendVerification',
    summary: "Mails the sign-up link again after the answer, with sign-up's limits (the same answer, in the same time, for every email)",
    status: 202,
    body: ResendVerificationBody,
    reply: ResendVerificationReply,
    session: false,
    csrf: true,
  },
  {
    method: 'post',
    path: '/dashboard/api/password/forgot',
    id: 'dashboardForgotPassword',
    summary: 'Mails a link to choose a new password after the answer (the same answer, in the same time, for every email)',
    status: 202,
    body: ForgotPasswordBody,
    reply: ForgotPasswordReply,
    session: false,
    csrf: true,
  },
  {
    method: 'post',
    path: '/dashboard/api/password/reset',
    id: 'dashboardResetPassword',
    summary: "The reset link's page, sent: sets the new password and ends the account's sessions (rate limited; keys_before to review)",
    status: 200,
    body: ResetPasswordBody,
    reply: ResetPasswordReply,
    session: false,
    csrf: true,
  },
  {
    method: 'post',
    path: '/dashboard/api/signout',
    id: 'dashboardSignOut',
    summary: 'Sign out: the session ends on every gateway',
    status: 204,
    session: true,
    csrf: true,
  },
  {
    method: 'get',
    path: '/dashboard/api/session',
    id: 'dashboardSession',
    summary: 'The signed-in account and the session CSRF token',
    status: 200,
    reply: SessionReply,
    session: true,
    csrf: false,
  },
  {
    method: 'get',
    path: '/dashboard/api/keys',
    id: 'dashboardListKeys',
    summary: "The account's keys: name, start, created, last used, status (never a key's value)",
    status: 200,
    reply: KeysReply,
    session: true,
    csrf: false,
  },
  {
    method: 'post',
    path: '/dashboard/api/keys',
    id: 'dashboardCreateKey',
    summary: 'Create a named key: its value is in this answer only',
    status: 201,
    body: CreateKeyBody,
    reply: CreatedKeyReply,
    session: true,
    csrf: true,
  },
  {
    method: 'post',
    path: '/dashboard/api/keys/{key_id}/revoke',
    id: 'dashboardRevokeKey',
    summary: 'Revoke a key, for good: 401 on every gateway replica at once',
    status: 200,
    reply: KeyItem,
    session: true,
    csrf: true,
  },
  {
    method: 'get',
    path: '/dashboard/api/usage',
    id: 'dashboardUsage',
    summary: "The month's CU: plan, used, remaining, period, per operation and per day",
    status: 200,
    reply: DashboardUsageReply,
    session: true,
    csrf: false,
  },
  {
    method: 'get',
    path: '/dashboard/api/webhooks',
    id: 'dashboardListWebhooks',
    summary: "The account's webhooks, each with its latest delivery attempts (never a secret)",
    status: 200,
    reply: DashboardWebhooksReply,
    session: true,
    csrf: false,
  },
  {
    method: 'post',
    path: '/dashboard/api/webhooks',
    id: 'dashboardCreateWebhook',
    summary: 'Register a webhook (1 CU per address, the plan limits as from the API): its secret is in this answer only',
    status: 201,
    body: CreateWebhookBody,
    reply: CreatedWebhookReply,
    session: true,
    csrf: true,
  },
  {
    method: 'post',
    path: '/dashboard/api/webhooks/{id}/test',
    id: 'dashboardTestWebhook',
    summary: 'Send the webhook a ping event (1 CU)',
    status: 202,
    reply: TestWebhookReply,
    session: true,
    csrf: true,
  },
  {
    method: 'delete',
    path: '/dashboard/api/webhooks/{id}',
    id: 'dashboardDeleteWebhook',
    summary: 'Delete a webhook and its delivery record; queued events are dropped',
    status: 204,
    session: true,
    csrf: true,
  },
];

const CSRF_HEADER = {
  name: 'X-CSRF-Token',
  in: 'header',
  required: true,
  description: "Signed in: the session's csrf_token; before: the credit_csrf cookie's value (GET /dashboard/api/csrf)",
  schema: { type: 'string' },
};

/** The dashboard's paths for the OpenAPI document: session cookie, not an API key. */
export function dashboardPaths(tools: Tools): Record<string, Record<string, Json>> {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of ROUTES) {
    const parameters: Json[] = [
      ...[...route.path.matchAll(/\{([a-z_]+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
      ...(route.csrf ? [CSRF_HEADER] : []),
    ];
    (paths[route.path] ??= {})[route.method] = {
      operationId: route.id,
      tags: ['Dashboard'],
      summary: route.summary,
      security: route.session ? [{ dashboardSession: [] }] : [],
      parameters,
      ...(route.body ? { requestBody: { required: true, content: tools.json(tools.schemaOf(route.body, 'input')) } } : {}),
      responses: {
        [String(route.status)]: {
          description: 'Success',
          ...(route.reply ? { content: tools.json(tools.schemaOf(route.reply, 'output')) } : {}),
        },
        ...tools.errorResponses,
      },
    };
  }
  return paths;
}
