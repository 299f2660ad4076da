import { Transform } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { isPyObject, type PyObject, type PyValue, parsePyJson } from '@parley/consensus';

/** How many calls' arguments are kept before the oldest are dropped. */
const KEPT_CALLS = 64;
/** A line longer than this is not tapped (the SDK refuses it anyway). */
const MAX_LINE_CHARS = 10 * 1024 * 1024;

type RequestId = string | number;

const keyOf = (id: RequestId): string => `${typeof id}:${id}`;

/**
 * `tools/call` arguments exactly as the host wrote them, read with Python's number typing
 * (`600.0` stays a float, big integers stay exact), by request id. The SDK reads JSON with
 * JSON.parse, which would turn `600.0` into `600` and change the receipt hash; a Python MCP
 * server would not.
 */
export class RawArguments {
  readonly #byId = new Map<string, { tool: string; args: PyObject }>();

  /** Records the arguments of a `tools/call` request line; ignores every other line. */
  record(line: string): void {
    if (!line.includes('"tools/call"')) return;
    let message: PyValue;
    try {
      message = parsePyJson(line);
    } catch {
      return;
    }
    if (!isPyObject(message) || message.method !== 'tools/call') return;
    const { id, params } = message;
    if ((typeof id !== 'string' && typeof id !== 'number') || !isPyObject(params)) return;
    const { name, arguments: args } = params;
    if (typeof name !== 'string' || !isPyObject(args)) return;
    this.#byId.set(keyOf(id), { tool: name, args });
    if (this.#byId.size > KEPT_CALLS) {
      const oldest = this.#byId.keys().next().value;
      if (oldest !== undefined) this.#byId.delete(oldest);
    }
  }

  /** The arguments of request `id` to `tool`, once. */
  take(id: RequestId, tool: string): PyObject | undefined {
    const key = keyOf(id);
    const entry = this.#byId.get(key);
    this.#byId.delete(key);
    return entry?.tool === tool ? entry.args : undefined;
  }

  /** A pass-through stream for stdin that records each line before the SDK reads it. */
  tap(): Transform {
    const decoder = new StringDecoder('utf8');
    let partial = '';
    const take = (text: string): void => {
      partial += text;
      let newline = partial.indexOf('\n');
      while (newline !== -1) {
        this.record(partial.slice(0, newline).replace(/\r$/, ''));
        partial = partial.slice(newline + 1);
        newline = partial.indexOf('\n');
      }
      if (partial.length > MAX_LINE_CHARS) partial = '';
    };
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        take(decoder.write(chunk));
        done(null, chunk);
      },
      flush(done) {
        take(decoder.end());
        done();
      },
    });
  }
}
