import { createHash } from 'node:crypto';
import { newId } from '@parley/consensus';
import { CaseError } from './errors.js';
import { MAX_EVIDENCE_BYTES, MAX_EVIDENCE_FILES } from './limits.js';
import type { CaseRecord, Clock, EvidenceItem } from './record.js';
import { privateOf, requireState, step } from './step.js';

/**
 * The file types taken (module 04: PDF, JPEG/PNG and DOCX), each known by its first bytes, not
 * by its name or the type the browser claims.
 */
export const EVIDENCE_TYPES = [
  { type: 'application/pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { type: 'image/jpeg', magic: [0xff, 0xd8, 0xff] },
  { type: 'image/png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  {
    type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    magic: [0x50, 0x4b, 0x03, 0x04],
  },
] as const;

/** The type the bytes are, or null. A DOCX is a ZIP that holds `word/document.xml`. */
export function sniffType(bytes: Uint8Array): string | null {
  for (const { type, magic } of EVIDENCE_TYPES) {
    if (magic.every((b, i) => bytes[i] === b)) {
      if (type.endsWith('.document') && !Buffer.from(bytes).includes('word/document.xml'))
        return null;
      return type;
    }
  }
  return null;
}

/** A file name safe to show and to offer for download: no folders, no control characters. */
export function safeFilename(name: unknown): string {
  const base = typeof name === 'string' ? (name.split(/[\\/]/).pop() ?? '') : '';
  const clean = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are removed
    .replace(/[\u0000-\u001f\u007f"<>|*?:]/g, '')
    .trim()
    .slice(0, 120);
  return clean === '' || clean === '.' || clean === '..' ? 'file' : clean;
}

/** `party` keeps a file in their private part (module 04: private by default). */
export function addEvidence(
  record: CaseRecord,
  party: string,
  file: { readonly filename: unknown; readonly bytes: Uint8Array },
  clock: Clock,
): { record: CaseRecord; id: string } {
  requireState(record, ['eliciting', 'ratifying', 'revising'], 'take a file');
  const own = privateOf(record, party);
  if (own.evidence.length >= MAX_EVIDENCE_FILES) {
    throw new CaseError('too_large', `a party keeps at most ${MAX_EVIDENCE_FILES} files`);
  }
  if (file.bytes.length === 0) throw new CaseError('bad_input', 'the file is empty');
  if (file.bytes.length > MAX_EVIDENCE_BYTES) {
    throw new CaseError('too_large', `a file may be at most ${MAX_EVIDENCE_BYTES / 1024} KiB`);
  }
  const type = sniffType(file.bytes);
  if (type === null)
    throw new CaseError('bad_type', 'only PDF, JPEG, PNG and DOCX files are taken');
  const item: EvidenceItem = {
    id: newId('ev', clock.random),
    filename: safeFilename(file.filename),
    type,
    size: file.bytes.length,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    uploaded_at: clock.now,
    shared: false,
    content: Buffer.from(file.bytes).toString('base64'),
    history: [],
  };
  return {
    record: step(
      record,
      { actor: party, type: 'evidence_added', clock },
      {},
      {
        [party]: { ...own, evidence: [...own.evidence, item] },
      },
    ),
    id: item.id,
  };
}

/**
 * `party` discloses one of their files to the others (an explicit act, `confirm: true`), or
 * withdraws it: it stops being shown, and the history keeps both acts (module 04).
 */
export function shareEvidence(
  record: CaseRecord,
  party: string,
  id: unknown,
  share: boolean,
  confirm: unknown,
  clock: Clock,
): CaseRecord {
  requireState(record, ['eliciting', 'ratifying', 'revising'], 'change what is shared');
  if (share && confirm !== true) {
    throw new CaseError(
      'bad_input',
      'sharing a file needs explicit confirmation ("confirm": true)',
    );
  }
  const own = privateOf(record, party);
  const item = own.evidence.find((e) => e.id === id);
  if (item === undefined) throw new CaseError('not_found', 'no such file of yours');
  if (item.shared === share) return record;
  const changed: EvidenceItem = {
    ...item,
    shared: share,
    history: [...item.history, { at: clock.now, act: share ? 'disclosed' : 'withdrawn' }],
  };
  const others = record.shared.disclosed.filter((d) => d.id !== item.id);
  return step(
    record,
    { actor: party, type: share ? 'evidence_disclosed' : 'evidence_withdrawn', clock },
    {
      disclosed: share
        ? [
            ...others,
            {
              id: item.id,
              owner: party,
              filename: item.filename,
              type: item.type,
              size: item.size,
              sha256: item.sha256,
              disclosed_at: clock.now,
            },
          ]
        : others,
    },
    { [party]: { ...own, evidence: own.evidence.map((e) => (e.id === item.id ? changed : e)) } },
  );
}

/** The bytes of a file `party` may read: their own, or one another party disclosed. */
export function readEvidence(record: CaseRecord, party: string, id: unknown): EvidenceItem {
  const own = privateOf(record, party).evidence.find((e) => e.id === id);
  if (own !== undefined) return own;
  const disclosed = record.shared.disclosed.find((d) => d.id === id);
  if (disclosed !== undefined) {
    const item = privateOf(record, disclosed.owner).evidence.find((e) => e.id === id);
    if (item?.shared === true) return item;
  }
  throw new CaseError('not_found', 'no such file');
}
