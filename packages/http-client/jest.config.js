module.exports = require('../../jest.preset')(__dirname, 'http-client');
