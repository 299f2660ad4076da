import { type Block, blockId, canonicalize, type Grant, utf8, verify } from '@parley/protocol';

/** One block of a grant as `parley inspect` reports it. */
export type BlockCheck = {
  index: number;
  /** Who signed it: the root's `iss`, else the previous block's `sub`. */
  signer: string;
  holder: string;
  id: string;
  /** Why the signature or the `prev` link fails, or undefined when both hold. */
  problem: string | undefined;
};

/**
 * §6.2, §6.4: checks each block's signature against the right key and each `prev` link, without
 * judging trust or caveats (those depend on the service and the request).
 */
export async function checkChain(grant: Grant): Promise<BlockCheck[]> {
  const checks: BlockCheck[] = [];
  let signer = grant[0].p.iss;
  let previousId: string | undefined;
  for (let index = 0; index < grant.length; index++) {
    const block = grant[index] as Block;
    const id = blockId(block);
    let problem: string | undefined;
    if (previousId !== undefined && (block.p as { prev: string }).prev !== previousId) {
      problem = 'its "prev" does not name the block before it';
    } else if (!(await signatureHolds(signer, block))) {
      problem = 'its signature does not verify';
    }
    checks.push({ index, signer, holder: block.p.sub, id, problem });
    signer = block.p.sub;
    previousId = id;
  }
  return checks;
}

async function signatureHolds(signer: string, block: Block): Promise<boolean> {
  try {
    return await verify(signer, utf8(canonicalize(block.p)), block.s);
  } catch {
    return false;
  }
}
