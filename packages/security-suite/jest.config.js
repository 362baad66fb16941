// The attacks of docs/SECURITY.md, each against the real stack; `pnpm test:security` runs them alone.
module.exports = require('../../jest.preset')(__dirname, 'security');
