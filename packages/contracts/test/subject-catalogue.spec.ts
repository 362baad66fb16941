import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSubjectCatalogue } from '../src/subject-catalogue';

describe('docs/SUBJECTS.md', () => {
  it('is the catalogue rendered from the contracts (run `pnpm docs:subjects` after a change)', () => {
    const committed = readFileSync(join(__dirname, '../../../docs/SUBJECTS.md'), 'utf8');
    expect(committed).toBe(renderSubjectCatalogue());
  });
});
