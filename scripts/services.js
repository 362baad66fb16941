'use strict';
// Reachability of the infrastructure the stack and the tests need.
const net = require('node:net');

const SERVICES = [
  { name: 'PostgreSQL', env: 'DATABASE_URL', fallback: 'postgresql://postgres@127.0.0.1:5432/credit', port: 5432 },
  { name: 'Redis', env: 'REDIS_URL', fallback: 'redis://127.0.0.1:6379', port: 6379 },
  { name: 'NATS', env: 'NATS_URL', fallback: 'nats://127.0.0.1:4222', port: 4222 },
];

function reachable(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function checkServices(env = process.env) {
  const missing = [];
  for (const service of SERVICES) {
    const url = new URL((env[service.env] ?? service.fallback).split(',')[0].trim());
    const port = Number(url.port || service.port);
    if (!(await reachable(url.hostname, port))) missing.push(`${service.name} (${url.hostname}:${port})`);
  }
  return missing;
}

module.exports = { checkServices };
