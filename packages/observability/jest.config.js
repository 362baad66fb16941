module.exports = require('../../jest.preset')(__dirname, 'observability');
