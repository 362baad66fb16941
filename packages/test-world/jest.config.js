module.exports = require('../../jest.preset')(__dirname, 'test-world');
