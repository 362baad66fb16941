'use strict';
// The yardstick: a bare Fastify server answering a fixed JSON body of the score's size.
const fastify = require('fastify')({ logger: false });

const BODY = {
  address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045',
  score: 742,
  decile: 6,
  range: 'fair',
  model_version: 'andromeda_1.0',
  timestamp: '2026-01-01T00:00:00.000Z',
};

fastify.get('/api/v2/sandbox/score/address/:address', async () => BODY);
fastify.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' }).then(() => {
  process.send?.({ port: fastify.server.address().port });
});
process.on('SIGTERM', () => fastify.close().then(() => process.exit(0)));
