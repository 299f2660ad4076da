import type { Store } from '@parley/service';

type Method = Exclude<keyof Store, 'data'>;

/**
 * A Store that sends each call to one of two stores in turn: two service instances over one
 * database, seen through the Store port. Service data goes through the first store's pool.
 */
export class TwoInstanceStore implements Store {
  readonly #stores: readonly [Store, Store];
  #next = 0;

  constructor(a: Store, b: Store) {
    this.#stores = [a, b];
  }

  get data() {
    return this.#stores[0].data;
  }

  #pick(): Store {
    this.#next = 1 - this.#next;
    return this.#stores[this.#next] as Store;
  }

  #call<M extends Method>(method: M, ...args: Parameters<Store[M]>): ReturnType<Store[M]> {
    const store = this.#pick();
    return (store[method] as (...a: Parameters<Store[M]>) => ReturnType<Store[M]>).apply(
      store,
      args,
    );
  }

  putProposals: Store['putProposals'] = (...a) => this.#call('putProposals', ...a);
  getProposal: Store['getProposal'] = (...a) => this.#call('getProposal', ...a);
  beginCommit: Store['beginCommit'] = (...a) => this.#call('beginCommit', ...a);
  finishCommit: Store['finishCommit'] = (...a) => this.#call('finishCommit', ...a);
  abandonCommit: Store['abandonCommit'] = (...a) => this.#call('abandonCommit', ...a);
  commitInTransaction: Store['commitInTransaction'] = (...a) =>
    this.#call('commitInTransaction', ...a);
  getCommit: Store['getCommit'] = (...a) => this.#call('getCommit', ...a);
  listApplying: Store['listApplying'] = (...a) => this.#call('listApplying', ...a);
  getReceipt: Store['getReceipt'] = (...a) => this.#call('getReceipt', ...a);
  beginUndo: Store['beginUndo'] = (...a) => this.#call('beginUndo', ...a);
  finishUndo: Store['finishUndo'] = (...a) => this.#call('finishUndo', ...a);
  abandonUndo: Store['abandonUndo'] = (...a) => this.#call('abandonUndo', ...a);
  listUndoing: Store['listUndoing'] = (...a) => this.#call('listUndoing', ...a);
  undoInTransaction: Store['undoInTransaction'] = (...a) => this.#call('undoInTransaction', ...a);
  getAuto: Store['getAuto'] = (...a) => this.#call('getAuto', ...a);
  putAutoReply: Store['putAutoReply'] = (...a) => this.#call('putAutoReply', ...a);
  putHandles: Store['putHandles'] = (...a) => this.#call('putHandles', ...a);
  getHandle: Store['getHandle'] = (...a) => this.#call('getHandle', ...a);
  deleteHandles: Store['deleteHandles'] = (...a) => this.#call('deleteHandles', ...a);
  spentTotal: Store['spentTotal'] = (...a) => this.#call('spentTotal', ...a);
  putRevocation: Store['putRevocation'] = (...a) => this.#call('putRevocation', ...a);
  findRevocation: Store['findRevocation'] = (...a) => this.#call('findRevocation', ...a);
  readAudit: Store['readAudit'] = (...a) => this.#call('readAudit', ...a);
  withData: Store['withData'] = (work) => this.#pick().withData(work);
  sweep: Store['sweep'] = (...a) => this.#call('sweep', ...a);

  async close(): Promise<void> {
    await Promise.all(this.#stores.map((s) => s.close()));
  }
}
