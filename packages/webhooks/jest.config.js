module.exports = require('../../jest.preset')(__dirname, 'webhook-delivery');
