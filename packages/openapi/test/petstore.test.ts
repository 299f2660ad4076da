import { connect, type ParleyClient } from '@parley/client';
import {
  generateKeyPair,
  type JsonValue,
  ParleyError,
  type Proposal,
  type ProposalsReply,
  publicKeyString,
  renderLens,
} from '@parley/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOpenApiService, type OpenApiService, presetPath } from '../src/index.js';
import { type ServedAgent, serveWithAgent } from './parley-agent.js';
import { BASE_PATH, PetstoreUpstream } from './petstore-upstream.js';

const SECRET = 'sk-test-9f8e7d6c5b4a39281706';
const upstream = new PetstoreUpstream(SECRET);
const principal = await generateKeyPair();
/** Every reply, Lens rendering, log line and error message the service produced. */
const outputs: string[] = [];

let origin: string;
let built: OpenApiService;
let served: ServedAgent;
let client: ParleyClient;

async function startService(timeoutMs?: number) {
  const made = await createOpenApiService({
    document: presetPath('petstore'),
    upstream: origin,
    auth: { secret: SECRET },
    trust: [publicKeyString(principal)],
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    log: (message, error) =>
      outputs.push(`${message} ${String(error)} ${(error as Error).stack ?? ''}`),
  });
  return { made, served: await serveWithAgent(made.service, principal, ['petstore.*']) };
}

/** Records a reply (raw and as Lens) for the credential scan, and returns it. */
function seen<T extends object>(reply: T): T {
  outputs.push(JSON.stringify(reply), renderLens(reply as never));
  return reply;
}

/** Runs a request expected to fail; records and returns the ParleyError. */
async function refused(request: Promise<unknown>): Promise<ParleyError> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ParleyError))
    throw new Error(`expected a ParleyError, got ${String(error)}`);
  outputs.push(error.message, renderLens({ kind: 'ERROR', ...error.toBody() }));
  return error;
}

async function propose(capability: string, params: Record<string, JsonValue>): Promise<Proposal> {
  const reply = seen((await client.intent(capability, params)) as ProposalsReply);
  expect(reply.kind).toBe('PROPOSALS');
  return reply.proposals[0] as Proposal;
}

beforeAll(async () => {
  origin = await upstream.start();
  ({ made: built, served } = await startService());
  client = served.client;
});

afterEach(() => {
  upstream.etags = true;
});

afterAll(async () => {
  await served.close();
  await upstream.close();
});

describe('parley openapi: the petstore preset against a real HTTP upstream', () => {
  it('§4.1: GET and HEAD become ask capabilities, writes intents with a risk; a binary upload is skipped', async () => {
    const brief = seen(await client.hello({ budget: 20_000 }));
    const kinds = Object.fromEntries(brief.capabilities.map((c) => [c.name, c.kind]));
    expect(kinds).toMatchObject({
      'petstore.getPetById': 'ask',
      'petstore.findPetsByStatus': 'ask',
      'petstore.addPet': 'intent',
      'petstore.deletePet': 'intent',
    });
    expect(kinds['petstore.uploadFile']).toBeUndefined();
    expect(built.skipped).toEqual([
      {
        method: 'POST',
        path: '/pet/{petId}/uploadImage',
        reason: 'its request body is application/octet-stream, not JSON',
      },
    ]);
    const risk = Object.fromEntries(brief.capabilities.map((c) => [c.name, c.risk]));
    expect(risk['petstore.addPet']).toBe('medium');
    expect(risk['petstore.deletePet']).toBe('high');
  });

  it('§4.1.1: params from path, query and the JSON body ($ref resolved) as the compact schema', async () => {
    const brief = await client.hello({ budget: 20_000 });
    const params = (name: string) => brief.capabilities.find((c) => c.name === name)?.params;
    expect(params('petstore.addPet')).toEqual({
      'id?': 'int',
      name: 'string',
      'category?': { 'id?': 'int', 'name?': 'string' },
      photoUrls: 'string[]',
      'tags?': [{ 'id?': 'int', 'name?': 'string' }],
      'status?': 'available|pending|sold — where the pet is in the store',
    });
    expect(params('petstore.getPetById')).toEqual({ petId: "int — the pet's id" });
    expect(params('petstore.findPetsByTags')).toEqual({ 'tags?': 'string[]' });
    expect(params('petstore.placeOrder')).toMatchObject({ 'shipDate?': 'datetime' });
    expect(params('petstore.createUser')).toMatchObject({ 'email?': 'string — email' });
    expect(params('petstore.createUsersWithListInput')).toMatchObject({
      body: [{ 'username?': 'string' }],
    });
  });

  it('§4.2: an ASK sends the GET with the credential and answers its JSON', async () => {
    upstream.pets.set(1, { id: 1, name: 'Rex', photoUrls: [], status: 'available' });
    const answer = seen(await client.ask('petstore.findPetsByStatus', { status: 'available' }));
    expect(answer.data).toEqual([{ id: 1, name: 'Rex', photoUrls: [], status: 'available' }]);
    const last = upstream.received.at(-1);
    expect(last).toMatchObject({
      method: 'GET',
      url: `${BASE_PATH}/pet/findByStatus?status=available`,
    });
    expect(last?.headers.api_key).toBe(SECRET);
  });

  it('§5.1: the proposal shows the exact request; COMMIT sends exactly that, UNDO sends the inverse', async () => {
    const proposal = await propose('petstore.addPet', {
      name: 'Nova',
      photoUrls: ['n.jpg'],
      status: 'pending',
    });
    const body = '{"name":"Nova","photoUrls":["n.jpg"],"status":"pending"}';
    expect(proposal).toMatchObject({
      summary: `Add a pet to the store: POST ${BASE_PATH}/pet`,
      effects: [{ op: 'create', target: `POST ${origin}${BASE_PATH}/pet`, detail: body }],
      cost: null,
      risk: 'medium',
      undo: { window: 3600 },
    });
    const before = upstream.received.length;
    const receipt = seen(await client.commit(proposal)).receipt;
    const sent = upstream.received.slice(before);
    const id = (receipt.result as { body: { id: number } }).body.id;
    // The request shown, then a read of what its undo would delete (§4.5, left-state.ts).
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      `POST ${BASE_PATH}/pet`,
      `GET ${BASE_PATH}/pet/${id}`,
    ]);
    expect(sent[0]).toMatchObject({ body });
    expect(sent[0]?.headers['content-type']).toBe('application/json');
    expect(upstream.pets.get(id)?.name).toBe('Nova');

    const undone = seen(await client.undo(receipt)).receipt;
    expect(undone).toMatchObject({
      undoes: receipt.id,
      effects: [{ op: 'delete', target: `DELETE ${origin}${BASE_PATH}/pet/${id}` }],
    });
    expect(upstream.received.at(-1)).toMatchObject({
      method: 'DELETE',
      url: `${BASE_PATH}/pet/${id}`,
    });
    // Sent over the ETag it checked, so a change after the check is refused by the upstream.
    expect(upstream.received.at(-1)?.headers['if-match']).toBe(`"pet-${id}-v1"`);
    expect(upstream.pets.has(id)).toBe(false);
  });

  it("§4.5: an UNDO over someone else's later change is refused with conflict, and nothing is sent", async () => {
    const receipt = seen(
      await client.commit(await propose('petstore.addPet', { name: 'Mine', photoUrls: [] })),
    ).receipt;
    const id = (receipt.result as { body: { id: number } }).body.id;
    // Another client of the API renames the pet after the COMMIT.
    upstream.touchPet(id, { name: 'Theirs' });
    const before = upstream.received.length;
    const error = await refused(client.undo(receipt));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe(
      `${BASE_PATH}/pet/${id} changed at the upstream since ${receipt.id} was committed; undoing it now would overwrite that change, so nothing was sent`,
    );
    expect(upstream.received.slice(before).map((r) => r.method)).toEqual(['GET']);
    expect(upstream.pets.get(id)?.name).toBe('Theirs');
    // Refused, not begun: the undo is neither in doubt nor used up, and is refused again.
    expect((await built.service.listUndoInDoubt()).map((u) => u.receipt.id)).not.toContain(
      receipt.id,
    );
    expect((await refused(client.undo(receipt))).message).toBe(error.message);
  });

  it("§4.5: a change between the UNDO's check and its request is refused by the upstream (412 → conflict)", async () => {
    const receipt = seen(
      await client.commit(await propose('petstore.addPet', { name: 'Racy', photoUrls: [] })),
    ).receipt;
    const id = (receipt.result as { body: { id: number } }).body.id;
    upstream.changeAfterNextRead = { id, change: { status: 'sold' } };
    const error = await refused(client.undo(receipt));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('HTTP 412');
    expect(upstream.pets.get(id)).toMatchObject({ name: 'Racy', status: 'sold' });
  });

  it('§4.5: an UNDO that puts a user back is refused over a later change to the user (no ETag: by body)', async () => {
    const ana = { username: 'bea', email: 'bea@example.com' };
    upstream.users.set('bea', ana);
    const change = await propose('petstore.updateUser', {
      username: 'bea',
      body: { username: 'bea', email: 'bea@new.example' },
    });
    const receipt = seen(await client.commit(change)).receipt;
    upstream.users.set('bea', { username: 'bea', email: 'bea@new.example', phone: '2' });
    const puts = upstream.received.filter((r) => r.method === 'PUT').length;
    expect((await refused(client.undo(receipt))).code).toBe('conflict');
    expect(upstream.received.filter((r) => r.method === 'PUT')).toHaveLength(puts);
    expect(upstream.users.get('bea')).toMatchObject({ phone: '2' });
  });

  it('a proposal that changes a resource it can read declares the fields, from → to, and the current state', async () => {
    upstream.pets.set(7, { id: 7, name: 'Rex', photoUrls: [], status: 'available' });
    const proposal = await propose('petstore.updatePetWithForm', { petId: 7, status: 'sold' });
    expect(proposal.effects).toEqual([
      { op: 'update', target: `POST ${origin}${BASE_PATH}/pet/7?status=sold` },
    ]);
    const user = { username: 'ana', email: 'ana@example.com', phone: '1' };
    upstream.users.set('ana', user);
    // The body's username clashes with the path's, so the body is one `body` param.
    const change = await propose('petstore.updateUser', {
      username: 'ana',
      body: { username: 'ana', email: 'ana@new.example' },
    });
    expect(change.effects.slice(1)).toEqual([
      {
        op: 'update',
        target: `${BASE_PATH}/user/ana`,
        field: 'email',
        from: 'ana@example.com',
        to: 'ana@new.example',
      },
    ]);
    expect(change.data).toEqual({ current: user });
    // Its undo puts the user back as it was read ($before.body).
    const receipt = seen(await client.commit(change)).receipt;
    expect(upstream.users.get('ana')).toEqual({ username: 'ana', email: 'ana@new.example' });
    seen(await client.undo(receipt));
    expect(upstream.users.get('ana')).toEqual(user);
  });

  it('§5.1: a COMMIT whose resource changed since the proposal is refused with conflict (ETag and If-Match)', async () => {
    upstream.pets.set(8, { id: 8, name: 'Bo', photoUrls: [], status: 'available' });
    const proposal = await propose('petstore.updatePetWithForm', { petId: 8, name: 'Bobo' });
    upstream.touchPet(8, { status: 'pending' });
    const before = upstream.received.length;
    const error = await refused(client.commit(proposal));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain(`${BASE_PATH}/pet/8 changed at the upstream`);
    // Only the re-read went out: the write was never sent.
    expect(upstream.received.slice(before).map((r) => r.method)).toEqual(['GET']);
    expect(upstream.pets.get(8)?.name).toBe('Bo');
    // Unchanged, the write goes out with If-Match on the ETag it was proposed against.
    const again = await propose('petstore.updatePetWithForm', { petId: 8, name: 'Bobo' });
    seen(await client.commit(again));
    const write = upstream.received.at(-1);
    expect(write).toMatchObject({ method: 'POST', url: `${BASE_PATH}/pet/8?name=Bobo` });
    expect(write?.headers['if-match']).toBe('"pet-8-v1"');
    expect(upstream.pets.get(8)?.name).toBe('Bobo');
  });

  it('§5.1: a change that lands between the re-read and the write is refused by the upstream (412 → conflict)', async () => {
    upstream.pets.set(10, { id: 10, name: 'Zed', photoUrls: [], status: 'available' });
    const proposal = await propose('petstore.updatePetWithForm', { petId: 10, status: 'sold' });
    upstream.changeAfterNextRead = { id: 10, change: { name: 'Zeta' } };
    const error = await refused(client.commit(proposal));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain('HTTP 412');
    expect(upstream.pets.get(10)).toMatchObject({ name: 'Zeta', status: 'available' });
  });

  it('§5.1: without ETags the COMMIT compares the resource body it reads again', async () => {
    upstream.etags = false;
    upstream.pets.set(9, { id: 9, name: 'Kit', photoUrls: [], status: 'available' });
    const proposal = await propose('petstore.deletePet', { petId: 9 });
    expect(proposal).toMatchObject({
      effects: [{ op: 'delete', target: `DELETE ${origin}${BASE_PATH}/pet/9` }],
      risk: 'high',
      undo: null,
    });
    upstream.touchPet(9, { name: 'Kitty' });
    expect((await refused(client.commit(proposal))).code).toBe('conflict');
    expect(upstream.pets.has(9)).toBe(true);
    const fresh = await propose('petstore.deletePet', { petId: 9 });
    seen(await client.commit(fresh));
    expect(upstream.pets.has(9)).toBe(false);
    expect(upstream.received.at(-1)?.headers['if-match']).toBeUndefined();
  });

  it('§7: upstream errors are typed, with the status and a fitted excerpt of the body', async () => {
    const missing = await refused(client.ask('petstore.getPetById', { petId: 4242 }));
    expect(missing.code).toBe('not_found');
    expect(missing.message).toContain(`HTTP 404 Not Found to GET ${BASE_PATH}/pet/4242`);
    expect(missing.message).toContain('pet 4242 not found');
    // The upstream echoed the key it received in that body: the excerpt shows it hidden.
    expect(missing.message).toContain('"received_api_key":"***"');
    const gone = await refused(client.intent('petstore.deletePet', { petId: 4242 }));
    expect(gone.code).toBe('not_found');
    const invalid = await refused(
      client.commit(await propose('petstore.updatePet', { id: 4242, name: 'X', photoUrls: [] })),
    );
    expect(invalid.code).toBe('not_found');
    const bad = await refused(client.intent('petstore.addPet', { name: 'X' }));
    expect(bad.code).toBe('invalid_params');
  });

  it('§4.3.1: a write is never auto-committed unless the document marks it low risk and undoable', async () => {
    const reply = seen(
      await client.intent('petstore.addPet', { name: 'Auto', photoUrls: [] }, { auto: true }),
    );
    expect(reply.kind).toBe('PROPOSALS');
    expect([...upstream.pets.values()].some((p) => p.name === 'Auto')).toBe(false);
  });

  it('with credentials configured, requests need a grant: the upstream is called as the operator', async () => {
    const anonymous = await connect(served.server.address);
    const error = await refused(anonymous.ask('petstore.getInventory', {}, { grants: false }));
    expect(error.code).toBe('unauthorized');
    await anonymous.close();
  });

  it('§4.4: a write whose answer never came is left in doubt and never sent again', async () => {
    const slow = await startService(300);
    try {
      const reply = (await slow.served.client.intent('petstore.placeOrder', {
        petId: 1,
        quantity: 1,
      })) as ProposalsReply;
      const proposal = reply.proposals[0] as Proposal;
      const before = upstream.received.length;
      upstream.stallNext = true;
      const first = await refused(slow.served.client.commit(proposal));
      expect(first.code).toBe('unavailable');
      expect(first.message).toContain('may have been carried out');
      const second = await refused(slow.served.client.commit(proposal));
      expect(second.code).toBe('unavailable');
      expect(upstream.received.slice(before).filter((r) => r.method === 'POST')).toHaveLength(1);
      expect((await slow.made.service.listCommitsInDoubt()).map((c) => c.proposalId)).toEqual([
        proposal.id,
      ]);
    } finally {
      await slow.served.close();
    }
  });

  it('§4.5: an UNDO whose answer a gateway lost is left in doubt and its inverse never sent again', async () => {
    const receipt = seen(
      await client.commit(await propose('petstore.addPet', { name: 'Lost', photoUrls: [] })),
    ).receipt;
    const pet = [...upstream.pets.values()].find((p) => p.name === 'Lost');
    const deletes = () => upstream.received.filter((r) => r.method === 'DELETE').length;
    const before = deletes();
    upstream.gatewayNext = { status: 504, reached: true };
    const first = await refused(client.undo(receipt));
    expect(first.code).toBe('unavailable');
    expect(first.message).toContain('HTTP 504');
    expect(first.message).toContain('it may have been carried out, so it will not be sent again');
    expect(upstream.pets.has(pet?.id ?? -1)).toBe(false);
    const second = await refused(client.undo(receipt));
    expect(second.code).toBe('unavailable');
    expect(deletes()).toBe(before + 1);
    // Before, the undo was released: the retry sent DELETE again and met a 404.
    expect((await built.service.listUndoInDoubt()).map((r) => r.receipt.id)).toEqual([receipt.id]);
  });

  it('§4.5: once the operator says an inverse request in doubt was not carried out, the undo runs once', async () => {
    const receipt = seen(
      await client.commit(await propose('petstore.addPet', { name: 'Twice', photoUrls: [] })),
    ).receipt;
    // A 502 may come after the API carried the request out: the undo stays in doubt. Here the
    // gateway never passed it on, which the operator finds out at the API.
    upstream.gatewayNext = { status: 502, reached: false };
    expect((await refused(client.undo(receipt))).code).toBe('unavailable');
    expect(await built.service.resolveUndo(receipt.id, { applied: false })).toBeNull();
    expect(seen(await client.undo(receipt)).receipt.undoes).toBe(receipt.id);
    expect([...upstream.pets.values()].some((p) => p.name === 'Twice')).toBe(false);
  });

  it('the credential appears in no reply, Lens, log or error, though the upstream echoes it', async () => {
    const inventory = seen(await client.ask('petstore.getInventory'));
    expect(JSON.stringify(inventory.data)).toContain('served for ***');
    const all = outputs.join('\n');
    expect(all.length).toBeGreaterThan(1000);
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain(SECRET.slice(3));
  });
});
