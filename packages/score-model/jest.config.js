module.exports = require('../../jest.preset')(__dirname, 'score-model');
