import {
  type Elicitor,
  type ElicitRequest,
  type PyObject,
  type PyValue,
  parsePyJson,
  pyDumps,
} from '@parley/consensus';

/** Who drafts on the page server: its label, and whether it is a real model. */
export interface ServerElicitor {
  readonly label: string;
  readonly model: boolean;
}

/** Asks the page server which elicitor drafts (GET /elicit). */
export async function serverElicitor(): Promise<ServerElicitor> {
  const response = await fetch('/elicit', { headers: { accept: 'application/json' } });
  const body = (await response.json()) as { elicitor?: unknown; model?: unknown };
  if (!response.ok || typeof body.elicitor !== 'string') {
    throw new Error('the page server has no interview model');
  }
  return { label: body.elicitor, model: body.model === true };
}

/**
 * The Elicitor port over the page server's `/elicit`: the server holds the model (and its key)
 * and returns the model's untrusted proposal; this page's engine checks it in full against the
 * options it holds. Only this participant's answers and the options are sent.
 */
export function remoteElicitor(label: string, options: readonly PyObject[]): Elicitor {
  return {
    label,
    async elicit(request: ElicitRequest, init?: { signal?: AbortSignal }): Promise<unknown> {
      const response = await fetch('/elicit', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: pyDumps({ answers: { ...request.answers }, options: [...options] } as PyValue),
        ...(init?.signal === undefined ? {} : { signal: init.signal }),
      });
      const body = parsePyJson(await response.text()) as { reply?: unknown; error?: unknown };
      if (!response.ok) {
        throw new Error(
          typeof body.error === 'string' ? body.error : `the server answered ${response.status}`,
        );
      }
      return body.reply;
    },
  };
}
