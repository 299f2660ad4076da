import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { exportedNames, packageEntries, pinFile, ROOT } from './exported-names.js';

/** `npm run api:pin`: writes each entry's exported names, for a change of API made on purpose. */
for (const [entry, names] of exportedNames(packageEntries())) {
  writeFileSync(pinFile(entry), `${names.join('\n')}\n`);
  console.log(`${relative(ROOT, pinFile(entry))}: ${names.length} names`);
}
