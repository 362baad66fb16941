module.exports = require('../../jest.preset')(__dirname, 'x402');
