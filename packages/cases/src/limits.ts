import { MAX_OPTIONS } from '@parley/consensus';

/** Parties of one case (issue 24: 2-5 by name; module 01: at least two before `ready`). */
export const MIN_PARTIES = 2;
export const MAX_PARTIES = 5;
/** Proposal rounds (module 06: maximum three). */
export const MAX_ROUNDS = 3;
/** Random bytes of a link: 256 bits, twice the 128 the issue asks at least. */
export const LINK_BYTES = 32;
/** How long a link opens the case (module 02: invite tokens expire after 72 hours). */
export const LINK_TTL_SECONDS = 72 * 3600;
/** Retention (module 09): unfinished cases 30 days after the last change, finished ones 90. */
export const UNFINISHED_RETENTION_SECONDS = 30 * 86_400;
export const TERMINAL_RETENTION_SECONDS = 90 * 86_400;
export const MAX_TITLE_CHARS = 200;
export const MAX_DECISION_CHARS = 2_000;
export const MAX_NAME_CHARS = 80;
/** A note a party keeps with a rejection, for themselves alone. */
export const MAX_NOTE_CHARS = 2_000;
/** Options a case may list or generate: the engine's own cap. */
export const MAX_CASE_OPTIONS = MAX_OPTIONS;
/**
 * One evidence file. Module 04 says 20 MB; files live inside the party's encrypted private
 * record and travel in one request body of the page server (1 MiB), so this build caps a file
 * at 512 KiB and a party at 8 files. A choice, written down: raise both with a file table.
 */
export const MAX_EVIDENCE_BYTES = 512 * 1024;
export const MAX_EVIDENCE_FILES = 8;
