import type { RequestOptions } from '@parley/client';
import type { BriefReply, FinalReply } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { dropRevokedGrants } from '../home/wallet-file.js';
import { type ConnectionFlags, positiveInteger } from './connection-flags.js';
import { type OpenService, openService } from './open-service.js';
import { ProgressView } from './progress-view.js';

/** A session after HELLO: the service id and its BRIEF (§4.1). */
export type HelloedService = OpenService & { service: string; brief: BriefReply | undefined };

/** One service session: connect, learn the service id (HELLO), run `work`, always close. */
export async function withService<T>(
  ctx: CliContext,
  url: string,
  flags: ConnectionFlags,
  options: { needWallet?: boolean; hello?: boolean },
  work: (open: HelloedService) => Promise<T>,
): Promise<T> {
  const open = await openService(ctx, url, flags, options.needWallet === true);
  try {
    const brief = options.hello === false ? undefined : await open.client.hello();
    return await work({ ...open, service: brief?.service.id ?? '', brief });
  } finally {
    await open.client.close();
  }
}

/** Sends one request with the flags' budget, showing EVENT progress on stderr. */
export async function send(
  ctx: CliContext,
  open: OpenService,
  draft: Parameters<OpenService['client']['request']>[0],
  flags: ConnectionFlags,
): Promise<FinalReply> {
  const progress = new ProgressView(ctx);
  const budget = positiveInteger(flags.budget, '--budget');
  const options: RequestOptions = {
    onEvent: progress.onEvent,
    ...(budget === undefined ? {} : { budget }),
  };
  let reply: FinalReply;
  try {
    // A RECEIPT whose signature fails is refused inside (ClientError bad_receipt_signature).
    reply = await open.client.request(draft, options);
  } finally {
    progress.done();
  }
  if (reply.kind === 'ERROR' && reply.revoked !== undefined) {
    // docs/extensions.md §E2: the client dropped it from its wallet; the wallet file too.
    const dropped = dropRevokedGrants(ctx.home, reply.revoked.target);
    if (dropped > 0) ctx.err(`dropped ${dropped} revoked grant(s) from the wallet\n`);
  }
  if (reply.kind === 'RECEIPT' && open.client.receiptKey !== undefined && reply.signed) {
    ctx.err(`signed by ${reply.signed.by} (${open.client.receiptKey})\n`);
  }
  return reply;
}
