import {
  type AttributeCatalog,
  type Change,
  ElicitError,
  parseRule,
  type SheetDraft,
} from '@parley/consensus';

/**
 * The engine's changes for what a person says about their draft, at the terminal or in flags:
 * `drop h2` (an item, a question, or a claim: c1), `fix h1 RULE`, `add RULE`, and the answer to
 * a question (`q1 RULE`, or `q1 skip`). A fixed item that changes kind is reclassified with the
 * new form the person wrote; ElicitError when the words say none of these.
 */
export function changeFor(
  words: {
    readonly verb: 'drop' | 'fix' | 'add' | 'answer';
    readonly id?: string;
    readonly rule?: string;
  },
  draft: SheetDraft,
  catalog: AttributeCatalog,
): Change {
  const id = words.id ?? '';
  // Claims have no ids of their own: c1 is the first as shown (draftLines).
  const claimAt = /^c([1-9][0-9]*)$/.exec(id);
  const claim = claimAt === null ? undefined : draft.claims[Number(claimAt[1]) - 1];
  const isQuestion = draft.clarifications.some((q) => q.id === id);
  const isItem = draft.hard.some((h) => h.id === id) || draft.utility.some((s) => s.id === id);
  if (words.verb === 'add') {
    const rule = parseRule(words.rule ?? '', catalog);
    return rule.kind === 'hard'
      ? { op: 'add_hard', constraint: rule.raw }
      : { op: 'add_soft', term: rule.raw };
  }
  if (words.verb === 'drop') {
    if (isQuestion) return { op: 'resolve', item_id: id, drop: true };
    if (isItem) return { op: 'remove', item_id: id };
    if (claim !== undefined) return { op: 'remove_claim', claim };
    throw new ElicitError('bad_change', `there is no ${JSON.stringify(id.slice(0, 20))} to drop`);
  }
  if (words.verb === 'answer' || isQuestion) {
    if (!isQuestion)
      throw new ElicitError(
        'bad_change',
        `there is no open question ${JSON.stringify(id.slice(0, 20))}`,
      );
    if (/^(skip|drop)$/i.test((words.rule ?? '').trim()))
      return { op: 'resolve', item_id: id, drop: true };
    const rule = parseRule(words.rule ?? '', catalog);
    return rule.kind === 'hard'
      ? { op: 'resolve', item_id: id, as_hard: rule.raw }
      : { op: 'resolve', item_id: id, as_soft: rule.raw };
  }
  if (!isItem)
    throw new ElicitError(
      'bad_change',
      claim === undefined
        ? `there is no item ${JSON.stringify(id.slice(0, 20))} to fix`
        : `a claim is kept as said or dropped (drop ${id}), not fixed`,
    );
  const rule = parseRule(words.rule ?? '', catalog);
  const wasHard = id.startsWith('h');
  if (rule.kind === 'hard') {
    return wasHard
      ? { op: 'set', item_id: id, constraint: rule.raw }
      : { op: 'reclassify', item_id: id, constraint: rule.raw };
  }
  return wasHard
    ? { op: 'reclassify', item_id: id, term: rule.raw }
    : { op: 'set', item_id: id, term: rule.raw };
}

/** `drop h2`, `fix h1 cost <= 650`, `add seats >= 30`: the words of one change, or null. */
export function readChangeWords(
  text: string,
): { verb: 'drop' | 'fix' | 'add'; id?: string; rule?: string } | null {
  const drop = /^drop\s+(\S+)$/i.exec(text.trim());
  if (drop !== null) return { verb: 'drop', id: drop[1] as string };
  const fix = /^fix\s+(\S+)\s+(.+)$/i.exec(text.trim());
  if (fix !== null) return { verb: 'fix', id: fix[1] as string, rule: fix[2] as string };
  const add = /^add\s+(.+)$/i.exec(text.trim());
  if (add !== null) return { verb: 'add', rule: add[1] as string };
  return null;
}
