import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the upstream received it. */
export type Received = {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
};

type Pet = { id: number; name: string; photoUrls: string[]; status?: string; [k: string]: unknown };
type Order = { id: number; petId?: number; quantity?: number; status?: string };
type User = { username: string; [k: string]: unknown };

/** Where the petstore document's operations live on this server. */
export const BASE_PATH = '/api/v3';

/**
 * A small stateful HTTP server implementing the petstore preset's operations, for tests: pets,
 * orders and users in memory, an `api_key` header it requires, strong ETags on pets (If-Match is
 * honoured with 412), and, on purpose, a careless habit: its error bodies and its inventory echo
 * the api_key it received, so a test can check the service never passes that on.
 */
export class PetstoreUpstream {
  readonly received: Received[] = [];
  readonly pets = new Map<number, Pet>();
  readonly orders = new Map<number, Order>();
  readonly users = new Map<string, User>();
  /** Pet versions for ETags; bumped on every change. */
  readonly #versions = new Map<number, number>();
  #nextId = 100;
  #server: Server | undefined;
  /** The next request is recorded and never answered (a lost answer). */
  stallNext = false;
  /**
   * A gateway in front of the API fails the next write (any request but a GET) with this status
   * (502 or 504): after the API carried it out (`reached`: the answer was lost), or before it
   * got there. Reads before the write (a COMMIT's or an UNDO's check) pass.
   */
  gatewayNext: { status: number; reached: boolean } | undefined;
  /** Whether pets carry ETags. */
  etags = true;
  /** `http://127.0.0.1:PORT` once started. */
  origin = '';
  /** Another client changes this pet right after the next GET of it is answered. */
  changeAfterNextRead: { id: number; change: Partial<Pet> } | undefined;

  constructor(readonly apiKey: string) {}

  /** Listens on 127.0.0.1 on a free port; resolves with the origin (`http://127.0.0.1:PORT`). */
  async start(): Promise<string> {
    const server = createServer((req, res) => {
      void this.#handle(req, res);
    });
    this.#server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.origin;
  }

  async close(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Changes a pet behind the service's back (another client of the API). */
  touchPet(id: number, change: Partial<Pet>): void {
    const pet = this.pets.get(id);
    if (pet === undefined) throw new Error(`no pet ${id}`);
    this.#savePet({ ...pet, ...change });
  }

  #savePet(pet: Pet): Pet {
    this.pets.set(pet.id, pet);
    this.#versions.set(pet.id, (this.#versions.get(pet.id) ?? 0) + 1);
    return pet;
  }

  #etag(id: number): string {
    return `"pet-${id}-v${this.#versions.get(id) ?? 0}"`;
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://upstream');
    this.received.push({
      method: req.method ?? '',
      url: `${url.pathname}${url.search}`,
      headers: req.headers,
      body,
    });
    if (this.stallNext) {
      this.stallNext = false;
      return;
    }
    const gateway = req.method === 'GET' ? undefined : this.gatewayNext;
    if (gateway !== undefined) this.gatewayNext = undefined;
    if (gateway?.reached === false) return gatewayFailure(res, gateway.status);
    const key = req.headers.api_key;
    const send = (status: number, value: unknown, headers: Record<string, string> = {}): void => {
      if (gateway !== undefined) {
        gatewayFailure(res, gateway.status);
        return;
      }
      const text = value === undefined ? '' : JSON.stringify(value);
      res.writeHead(status, {
        ...(text === '' ? {} : { 'content-type': 'application/json' }),
        ...headers,
      });
      res.end(text);
    };
    // Careless on purpose: errors echo the key this server was given.
    const fail = (status: number, message: string): void =>
      send(status, { code: status, message, received_api_key: key ?? null });
    if (key !== this.apiKey) return fail(401, 'a valid api_key header is required');
    if (!url.pathname.startsWith(BASE_PATH)) return fail(404, 'no such path');
    const path = url.pathname.slice(BASE_PATH.length);
    const json = (): Record<string, unknown> | undefined => {
      try {
        const parsed = JSON.parse(body) as unknown;
        return parsed !== null && typeof parsed === 'object'
          ? (parsed as Record<string, unknown>)
          : undefined;
      } catch {
        return undefined;
      }
    };
    const method = req.method ?? '';
    const petMatch = /^\/pet\/(\d+)$/.exec(path);
    const orderMatch = /^\/store\/order\/(\d+)$/.exec(path);
    const userMatch = /^\/user\/([^/]+)$/.exec(path);

    if (path === '/pet' && (method === 'POST' || method === 'PUT')) {
      const input = json();
      if (
        input === undefined ||
        typeof input.name !== 'string' ||
        !Array.isArray(input.photoUrls)
      ) {
        return fail(400, 'a pet needs a name and photoUrls');
      }
      const id = typeof input.id === 'number' ? input.id : this.#nextId++;
      if (method === 'PUT' && !this.pets.has(id)) return fail(404, `pet ${id} not found`);
      if (method === 'POST' && this.pets.has(id)) return fail(409, `pet ${id} exists`);
      return send(200, this.#savePet({ ...(input as Pet), id }));
    }
    if (path === '/pet/findByStatus' && method === 'GET') {
      const status = url.searchParams.get('status') ?? 'available';
      return send(
        200,
        [...this.pets.values()].filter((p) => p.status === status),
      );
    }
    if (path === '/pet/findByTags' && method === 'GET') {
      const tags = url.searchParams.getAll('tags');
      return send(
        200,
        [...this.pets.values()].filter((p) =>
          ((p.tags as { name?: string }[] | undefined) ?? []).some((t) =>
            tags.includes(t.name ?? ''),
          ),
        ),
      );
    }
    if (petMatch !== null) {
      const id = Number(petMatch[1]);
      const pet = this.pets.get(id);
      if (pet === undefined) return fail(404, `pet ${id} not found`);
      const ifMatch = req.headers['if-match'];
      if (method !== 'GET' && ifMatch !== undefined && ifMatch !== this.#etag(id)) {
        return fail(412, `pet ${id} changed`);
      }
      const tag = (): Record<string, string> => (this.etags ? { etag: this.#etag(id) } : {});
      if (method === 'GET') {
        send(200, pet, tag());
        if (this.changeAfterNextRead?.id === id) {
          this.touchPet(id, this.changeAfterNextRead.change);
          this.changeAfterNextRead = undefined;
        }
        return;
      }
      if (method === 'DELETE') {
        this.pets.delete(id);
        return send(200, undefined);
      }
      if (method === 'POST') {
        const name = url.searchParams.get('name');
        const status = url.searchParams.get('status');
        this.#savePet({
          ...pet,
          ...(name === null ? {} : { name }),
          ...(status === null ? {} : { status }),
        });
        return send(200, this.pets.get(id), tag());
      }
    }
    if (path === '/store/inventory' && method === 'GET') {
      const counts: Record<string, unknown> = {};
      for (const pet of this.pets.values())
        counts[pet.status ?? 'none'] = ((counts[pet.status ?? 'none'] as number) ?? 0) + 1;
      // Careless on purpose: a debugging field with the key.
      return send(200, { ...counts, debug: `served for ${key}` });
    }
    if (path === '/store/order' && method === 'POST') {
      const input = (json() ?? {}) as Order;
      const id = typeof input.id === 'number' ? input.id : this.#nextId++;
      const order = { ...input, id, status: input.status ?? 'placed' };
      this.orders.set(id, order);
      return send(200, order);
    }
    if (orderMatch !== null) {
      const id = Number(orderMatch[1]);
      const order = this.orders.get(id);
      if (order === undefined) return fail(404, `order ${id} not found`);
      if (method === 'GET') return send(200, order);
      if (method === 'DELETE') {
        this.orders.delete(id);
        return send(200, undefined);
      }
    }
    if (path === '/user' && method === 'POST') {
      const input = json();
      if (input === undefined || typeof input.username !== 'string')
        return fail(400, 'a user needs a username');
      this.users.set(input.username, input as User);
      return send(200, input);
    }
    if (userMatch !== null) {
      const name = decodeURIComponent(userMatch[1] as string);
      const user = this.users.get(name);
      if (method === 'PUT') {
        const input = json();
        if (input === undefined) return fail(400, 'a user is a JSON object');
        this.users.delete(name);
        this.users.set(typeof input.username === 'string' ? input.username : name, {
          ...input,
          username: typeof input.username === 'string' ? input.username : name,
        });
        return send(200, undefined);
      }
      if (user === undefined) return fail(404, `user ${name} not found`);
      if (method === 'GET') return send(200, user);
      if (method === 'DELETE') {
        this.users.delete(name);
        return send(200, undefined);
      }
    }
    return fail(404, `no route ${method} ${path}`);
  }
}

function gatewayFailure(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'text/plain' });
  res.end('the gateway got no answer from the API');
}
