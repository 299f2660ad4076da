/** The pairing step of `npm start` (packages/cli/src/start/pairing-endpoint.ts), from the page. */
const PAIRING_PATH = '/pairing';

/** Whether the local services trust `principal`; undefined when the server cannot be asked. */
export async function isPaired(principal: string): Promise<boolean | undefined> {
  try {
    const response = await fetch(`${PAIRING_PATH}?principal=${encodeURIComponent(principal)}`);
    if (!response.ok) return undefined;
    const body = (await response.json()) as { paired?: unknown };
    return body.paired === true;
  } catch {
    return undefined;
  }
}

/** Presents the code printed by `npm start`; resolves, or rejects with the server's sentence. */
export async function pair(principal: string, code: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(PAIRING_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ principal, code }),
    });
  } catch {
    throw new Error('the page server does not answer: is npm start still running?');
  }
  if (response.ok) return;
  const body = (await response.json().catch(() => ({}))) as { error?: unknown };
  throw new Error(
    typeof body.error === 'string' ? body.error : `pairing failed (HTTP ${response.status})`,
  );
}
