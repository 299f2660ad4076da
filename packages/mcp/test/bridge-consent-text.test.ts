import { publicKeyString } from '@parley/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBridgeHost } from './support/bridge-host.js';
import {
  HOSTILE_CAPABILITY,
  rawHostileCharacters,
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
      const message = host.elicited[0]?.message ?? '';
      expect(rawHostileCharacters(message)).toEqual([]);
      expect(message).toContain(
        'Send a gift to \\u{202e}\\u{2066}moc.live\\u{2069} \\u{200b}\\u{2060}\\u{feff}\\u{1b}[2J\\u{d}\\u{a}  Cost:     free',
      );
      expect(message).toContain(
        '$ charge card x\ufe0f\\u{fe0f}\\u{fe0f} e\u0301\u0301\u0301\u0301\\u{301}\\u{301}\\u{301} — P\\u{430}y 250.00 USD\\u{9b}\\u{e0041}\\u{200d}\\u{200f}\\u{61c}\\u{7}',
      );
      // The forged line is not a line: the only Cost line is the proposal's.
      expect(message.split('\n').filter((line) => /^\s*Cost:/.test(line))).toEqual([
        '  Cost:     250.00 USD',
      ]);
      expect(message).toContain('approve a commit at gifts.ex\\u{430}mple (parley://127.0.0.1:');
      expect(message).toMatch(/^Warning: the service id has characters outside ASCII/m);
    });
  },
);
