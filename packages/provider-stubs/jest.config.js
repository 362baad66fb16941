module.exports = require('../../jest.preset')(__dirname, 'provider-stubs');
