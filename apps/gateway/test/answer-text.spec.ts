import { answerText } from '../src/agents/answer-text';

/** The one-line reading an MCP tool's answer starts with, per reply shape of docs/API.md §2 and §4.1. */
const A = '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045';

describe('answerText', () => {
  it('reads a score', () => {
    expect(answerText({ address: A, score: 700, decile: 4, range: 'fair', model_version: 'andromeda_1.0' })).toBe(
      `Score 700 (decile 4, fair) for ${A}, model andromeda_1.0.`,
    );
  });

  it('reads a score history: how many days, from where to where', () => {
    const body = {
      address: A,
      model_version: 'andromeda_1.0',
      points: [
        { date: '2026-11-24', score: 648, decile: 2, range: 'fair' },
        { date: '2026-11-25', score: 671, decile: 3, range: 'fair' },
        { date: '2026-11-26', score: 705, decile: 4, range: 'fair' },
      ],
    };
    expect(answerText(body)).toBe(
      `Score history of ${A}: 3 daily scores from 648 on 2026-11-24 to 705 on 2026-11-26 (decile 4, fair), model andromeda_1.0.`,
    );
    expect(answerText({ ...body, points: [] })).toBe(`Score history of ${A}: no day with activity in the period.`);
  });
});
