module.exports = require('../../jest.preset')(__dirname, 'model-lab');
