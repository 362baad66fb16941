'use strict';
// Where a bench's traced apps export their spans (OTLP/HTTP): every POST read to its end and
// answered 200, nothing kept, so the apps pay the whole cost of exporting and the sink little.
const { createServer } = require('node:http');

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});
server.listen(0, '127.0.0.1', () => process.send?.({ port: server.address().port }));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
