import { publicKeyString } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBridgeHost } from './support/bridge-host.js';
import {
  expectEscapedConsentScreen,
  HOSTILE_CAPABILITY,
  startHostileService,
} from './support/hostile-service.js';
import { ERAS, type Host } from './support/hosts.js';
import { isToolError, textOf } from './support/results.js';
import { AGENT_SEED, PRINCIPAL_SEED, seededKey } from './support/services.js';

describe.each(ERAS)(
  '§6.6 the elicitation text escapes what a service wrote, MCP %s host',
  (era) => {
    let hostile: Awaited<ReturnType<typeof startHostileService>>;
    let host: Host;

    beforeAll(async () => {
      hostile = await startHostileService(await seededKey(PRINCIPAL_SEED));
      const agent = publicKeyString(await seededKey(AGENT_SEED));
      host = await openBridgeHost(
        era,
        {
          urls: [hostile.server.address],
          grants: [await hostile.grant(agent)],
          principalSeed: PRINCIPAL_SEED,
        },
        () => ({ action: 'decline' }),
      );
    });
    afterAll(async () => {
      await host?.close();
      await hostile?.close();
    });

    it('control, bidi, zero-width, selector, mark and confusable characters all show as escapes', async () => {
      const intent = await host.client.callTool({
        name: 'parley_intent',
        arguments: { capability: HOSTILE_CAPABILITY },
      });
      const { proposals } = intent.structuredContent as { proposals: { id: string }[] };
      const proposal = proposals[0]?.id ?? '';
      const declined = await host.client.callTool({
        name: 'parley_commit',
        arguments: { proposal },
      });
      expect(isToolError(declined)).toBe(false);
      expect(textOf(declined)).toContain('nothing was committed or signed');
      expectEscapedConsentScreen(host.elicited[0]?.message ?? '');
    });
  },
);
