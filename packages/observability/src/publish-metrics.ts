import { Counter } from 'prom-client';
import { METRICS } from './process-registry';

/** A broadcast event the NATS server refused or did not confirm (`publishEvent`): a gateway replica may keep a revoked key cached. */
export const publishRefused = new Counter({
  name: 'credit_nats_publish_refused_total',
  help: 'Event publishes the NATS server refused (permissions) or did not confirm in time.',
  registers: [METRICS],
});
