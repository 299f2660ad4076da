import { connect } from '@parley/client';
import { decodeGrant } from '@parley/protocol';
import type { CliContext } from '../cli-context.js';
import { loadAgent, localPublicKey } from '../home/local-keys.js';
import { loadWallet } from '../home/wallet-file.js';
import { commandLine } from '../shell-quote.js';
import { type DoctorCheck, fail, ok } from './doctor-check.js';

/** How long a service has to answer HELLO (ms). */
const ANSWER_WITHIN_MS = 3_000;

/**
 * Each service: it answers HELLO (§4.1), and the agent holds a usable grant naming it (§6.3 svc)
 * and from which principal. Whether the service trusts that principal (§6.4) only shows when it
 * authorizes a request: v1 has no question for it, so the line says whose grant it will see.
 */
export async function serviceChecks(
  ctx: CliContext,
  urls: readonly string[],
  self: readonly string[],
): Promise<DoctorCheck[]> {
  // An unusable key or wallet has its own failing line (local-checks); here it means no grants.
  const wallet = await loadAgent(ctx.home).then(
    (agent) => loadWallet(ctx.home, agent, ctx.now(), () => undefined),
    () => undefined,
  );
  const principal = await localPublicKey(ctx.home, 'principal').catch(() => undefined);
  const results = await Promise.all(
    urls.map(async (url): Promise<DoctorCheck[]> => {
      const name = `service ${url}`;
      let id: string;
      try {
        const client = await connect(url, {
          agentName: 'parley-doctor',
          timeout: ANSWER_WITHIN_MS,
          connectTimeout: ANSWER_WITHIN_MS,
        });
        try {
          const brief = await client.hello();
          id = brief.service.id;
          const reached = ok(name, `answers as ${id} (${brief.service.name})`);
          return [reached, grantLine(id)];
        } finally {
          await client.close();
        }
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return [
          fail(
            name,
            `does not answer: ${reason}`,
            `start it (\`npm start\` serves the examples), or name the right URL: ${commandLine([...self, 'setup', 'HOST', '--services', 'URL'])}`,
          ),
        ];
      }
    }),
  );
  return results.flat();

  function grantLine(id: string): DoctorCheck {
    const name = `grants for ${id}`;
    const tokens = wallet?.grantsFor(id) ?? [];
    if (tokens.length === 0) {
      return fail(
        name,
        'the agent holds no usable grant naming it (§6.3 svc)',
        commandLine([...self, 'grant', '--svc', id, '--can', 'PATTERN']),
      );
    }
    const issuers = [...new Set(tokens.map((t) => decodeGrant(t)[0].p.iss))].map((iss) =>
      iss === principal ? `${iss} (this home's principal)` : iss,
    );
    return ok(
      name,
      `${tokens.length} usable, from ${issuers.join(', ')}; the service must trust that principal, which shows at the first COMMIT (v1 has no trust query)`,
    );
  }
}
