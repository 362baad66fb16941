module.exports = require('../../jest.preset')(__dirname, 'e2e');
