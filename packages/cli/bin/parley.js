#!/usr/bin/env node
// npm links this file at install time, before `prepare` builds dist/, so the link always exists.
try {
  await import('../dist/bin.js');
} catch (error) {
  if (error?.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('dist/bin.js')) {
    process.stderr.write(
      'parley: the CLI is not built yet; run `npm run build` at the repo root\n',
    );
    process.exit(2);
  }
  throw error;
}
