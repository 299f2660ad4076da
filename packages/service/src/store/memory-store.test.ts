import { describeStoreContract } from '../testing/store-contract.js';
import { MemoryStore } from './memory-store.js';

describeStoreContract('MemoryStore', { open: async () => new MemoryStore() });
