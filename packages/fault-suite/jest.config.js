// Every test here starts real processes (the apps' dist/main.js, nats-server, redis-server) and
// kills them in afterAll; `pnpm test:faults` runs this project alone.
module.exports = require('../../jest.preset')(__dirname, 'fault-suite');
