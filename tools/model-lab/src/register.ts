/**
 * Registers the current table and protocol before the held-out run:
 *
 *   node tools/model-lab/dist/register.js docs/model-registration.json   (`pnpm model:register`)
 *
 * Commit the file; `pnpm model:evaluate` refuses to read the held-out worlds for any other table or protocol.
 */
import { runMain } from './calibration/cli';
import { writeRegistration } from './evaluation/registration';

runMain(async () => {
  const file = process.argv[2] ?? 'docs/model-registration.json';
  const r = writeRegistration(file);
  console.log(`registered table ${r.tableHash} (revision ${r.revision}) and protocol ${r.protocolHash} in ${file}`);
});
