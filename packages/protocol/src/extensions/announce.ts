import { isPublicKey } from '../keys.js';

/**
 * docs/extensions.md: the extensions of v1 this implementation offers, each announced by the
 * service in its BRIEF under `ext` (a v1 agent ignores the unknown field, §2.1). A service that
 * announces none sends a BRIEF without `ext`, byte for byte the v1 BRIEF.
 */
export const EXTENSION_NAMES = ['signed-receipts', 'revocation', 'audit', 'approvals'] as const;
export type ExtensionName = (typeof EXTENSION_NAMES)[number];

/** docs/extensions.md §E1: the key whose signature every RECEIPT of this service carries. */
export type SignedReceiptsAnnouncement = { key: string };

/** The BRIEF's `ext` member: each offered extension by name, with its parameters. */
export type Extensions = {
  'signed-receipts'?: SignedReceiptsAnnouncement;
  revocation?: Record<string, never>;
  audit?: Record<string, never>;
  approvals?: Record<string, never>;
};

/**
 * The receipt key a BRIEF announced, if it announced one well formed; undefined when it
 * announced none. A malformed announcement is reported as `malformed` so a client never silently
 * treats a service that meant to sign as one that does not.
 */
export function announcedReceiptKey(ext: unknown): string | undefined | { malformed: string } {
  if (ext === undefined) return undefined;
  if (typeof ext !== 'object' || ext === null || Array.isArray(ext)) {
    return { malformed: 'the BRIEF `ext` is not an object' };
  }
  const entry = (ext as Record<string, unknown>)['signed-receipts'];
  if (entry === undefined) return undefined;
  const key =
    typeof entry === 'object' && entry !== null
      ? (entry as Record<string, unknown>).key
      : undefined;
  if (!isPublicKey(key)) {
    return { malformed: 'the BRIEF announces signed receipts without a valid ed25519 key' };
  }
  return key;
}
