import {
  isPlainObject,
  isPublicKey,
  type Receipt,
  renderTime,
  verifyReceiptSignature,
} from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { CliError, EXIT, type ExitCode } from '../cli-error.js';
import type { ConnectionFlags } from '../verbs/connection-flags.js';
import { openService } from '../verbs/open-service.js';

/** The receipt and its signature, from a file `parley commit --json` (or undo, or intent) wrote. */
function receiptOf(text: string, file: string): { receipt: Receipt; signed: unknown } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new CliError(`${file} is not JSON; save a receipt with \`parley commit … --json\``);
  }
  if (!isPlainObject(body) || !isPlainObject(body.receipt)) {
    throw new CliError(`${file} holds no Parley receipt (a RECEIPT reply with a "receipt" member)`);
  }
  return { receipt: body.receipt as unknown as Receipt, signed: body.signed };
}

/**
 * The key to check against: given as "ed25519:…", or announced in the BRIEF of the service at a
 * URL (whose id the signature must then name too).
 */
async function expectedSigner(
  ctx: CliContext,
  service: string,
  flags: ConnectionFlags,
): Promise<{ key: string; service?: string }> {
  if (service.startsWith('ed25519:')) {
    if (!isPublicKey(service))
      throw new CliError(`--service ${service} is not a valid ed25519 key`);
    return { key: service };
  }
  const open = await openService(ctx, service, flags);
  try {
    const brief = await open.client.hello();
    const key = open.client.receiptKey;
    if (key === undefined) {
      throw new CliError(
        `${brief.service.id} at ${service} announces no receipt key, so none of its receipts can be checked`,
        EXIT.error,
      );
    }
    return { key, service: brief.service.id };
  } finally {
    await open.client.close();
  }
}

/**
 * `parley verify-receipt FILE --service KEY|URL` (docs/extensions.md §E1): checks offline, or
 * against the key a service announces, that a Parley receipt is signed by that service and
 * unchanged. A failing signature exits 1 and says so; it never reads as done.
 */
export async function verifyServiceReceipt(
  ctx: CliContext,
  file: string,
  text: string,
  service: string,
  flags: ConnectionFlags,
): Promise<ExitCode> {
  const { receipt, signed } = receiptOf(text, file);
  const expected = await expectedSigner(ctx, service, flags);
  const check = await verifyReceiptSignature(receipt, signed, expected);
  const id = String(receipt.id);
  if (!check.ok) {
    ctx.out(`✗ receipt ${id} is NOT verified: ${check.reason}\n`);
    return EXIT.error;
  }
  const at = typeof receipt.at === 'number' ? ` at ${renderTime(receipt.at)}` : '';
  const what = receipt.undoes === undefined ? 'receipt' : `reversal of ${receipt.undoes}, receipt`;
  ctx.out(`✓ ${what} ${id} signed by ${check.by} (${expected.key})${at}\n`);
  ctx.out('  covered: every field but result (docs/extensions.md §E1)\n');
  return EXIT.ok;
}
