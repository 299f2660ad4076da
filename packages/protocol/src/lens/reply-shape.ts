/**
 * §5: whether a reply has the fields its §9.2 template reads, with the types it reads them as.
 * A reply that doesn't is rendered as the lean notation of its body instead (render-lens.ts),
 * so rendering never throws on a malformed or unknown reply. Fields the templates don't read
 * (a proposal's hash, a capability kind's spelling, ...) are not checked here.
 */

type Entries = Record<string, unknown>;

/** Whether `value` is a non-null, non-array object. */
export function isEntries(value: unknown): value is Entries {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isNumber = (value: unknown): value is number => typeof value === 'number';

/** An optional field: absent (undefined) or passing `check`. */
function optional(object: Entries, key: string, check: (value: unknown) => boolean): boolean {
  const value = object[key];
  return value === undefined || check(value);
}

function listOf(value: unknown, check: (item: unknown) => boolean): boolean {
  return Array.isArray(value) && value.every(check);
}

function isEffect(value: unknown): boolean {
  return (
    isEntries(value) &&
    isText(value.op) &&
    isText(value.target) &&
    optional(value, 'field', isText) &&
    optional(value, 'detail', isText)
  );
}

/**
 * A list of effects. `checked` remembers lists found well formed during one fitting run, which
 * measures the same proposals again after every halving: their effects never change (§8).
 */
function isEffectList(value: unknown, checked: WeakSet<object> | undefined): boolean {
  if (!Array.isArray(value)) return false;
  if (checked?.has(value)) return true;
  const ok = value.every(isEffect);
  if (ok) checked?.add(value);
  return ok;
}

function isMoney(value: unknown): boolean {
  return isEntries(value) && isNumber(value.amount) && isText(value.currency);
}

function isProposal(value: unknown, checked: WeakSet<object> | undefined): boolean {
  return (
    isEntries(value) &&
    isText(value.id) &&
    isText(value.summary) &&
    isEffectList(value.effects, checked) &&
    (value.cost === null || isMoney(value.cost)) &&
    isText(value.risk) &&
    (value.undo === null || (isEntries(value.undo) && isNumber(value.undo.window))) &&
    isNumber(value.expires)
  );
}

function isCapability(value: unknown): boolean {
  return (
    isEntries(value) &&
    isText(value.name) &&
    isText(value.kind) &&
    optional(value, 'summary', isText) &&
    optional(value, 'params', isEntries) &&
    optional(value, 'risk', isText)
  );
}

function isService(value: unknown): boolean {
  return (
    isEntries(value) && isText(value.id) && isText(value.name) && optional(value, 'summary', isText)
  );
}

function isReceipt(value: unknown, auto: boolean): boolean {
  if (!isEntries(value)) return false;
  const undoes = value.undoes;
  return (
    isText(value.id) &&
    isText(value.summary) &&
    (undoes === undefined || isText(undoes)) &&
    // The undo window is read only on a first line that isn't an undo receipt's.
    (undoes !== undefined ||
      value.undo === null ||
      (isEntries(value.undo) && isNumber(value.undo.until))) &&
    // Effects are read only for auto-commits (and never for undo receipts).
    (!auto || undoes !== undefined || listOf(value.effects, isEffect))
  );
}

function isFix(value: unknown): boolean {
  return isEntries(value) && isText(value.say);
}

function isConsent(value: unknown): boolean {
  return isEntries(value) && isText(value.hash) && isText(value.summary);
}

function isMore(value: unknown): boolean {
  return (
    isEntries(value) &&
    isText(value.handle) &&
    isText(value.path) &&
    isNumber(value.remaining) &&
    isNumber(value.est)
  );
}

/**
 * Whether `reply` fits the §9.2 template of its kind (and its `more`, if any, is well formed).
 * `checked` (LensMemo.checked) remembers effect lists already found well formed.
 */
export function hasReplyShape(reply: Entries, checked?: WeakSet<object>): boolean {
  if (!optional(reply, 'more', (more) => listOf(more, isMore))) return false;
  switch (reply.kind) {
    case 'BRIEF':
      return isService(reply.service) && listOf(reply.capabilities, isCapability);
    case 'ANSWER':
      return reply.data !== undefined;
    case 'PROPOSALS':
      return listOf(reply.proposals, (proposal) => isProposal(proposal, checked));
    case 'CLARIFY':
      return (
        isText(reply.question) &&
        listOf(reply.options, (option) => isEntries(option) && isText(option.label))
      );
    case 'RECEIPT':
      return isReceipt(reply.receipt, reply.auto === true);
    case 'ERROR':
      return (
        isText(reply.code) &&
        isText(reply.message) &&
        optional(reply, 'fix', (fix) => listOf(fix, isFix)) &&
        optional(reply, 'consent', isConsent) &&
        optional(reply, 'retry', (retry) => retry === null || isNumber(retry))
      );
    case 'EVENT':
      return isText(reply.message) && optional(reply, 'progress', isNumber);
    default:
      return false;
  }
}
