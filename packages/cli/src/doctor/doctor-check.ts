/** One line of `parley doctor`: a check, what it found, and for a failure the fix. */
export type DoctorCheck = {
  status: 'ok' | 'warn' | 'fail';
  name: string;
  detail: string;
  /** The command or step that fixes it (failures and warnings). */
  fix?: string;
};

const MARKS = { ok: '✓', warn: '!', fail: '✗' } as const;

/** `✓ name: detail`, or `✗ name: detail — fix: …`. */
export function renderCheck(check: DoctorCheck): string {
  const fix = check.fix === undefined ? '' : ` — fix: ${check.fix}`;
  return `${MARKS[check.status]} ${check.name}: ${check.detail}${fix}`;
}

export const ok = (name: string, detail: string): DoctorCheck => ({ status: 'ok', name, detail });
export const warn = (name: string, detail: string, fix: string): DoctorCheck => ({
  status: 'warn',
  name,
  detail,
  fix,
});
export const fail = (name: string, detail: string, fix: string): DoctorCheck => ({
  status: 'fail',
  name,
  detail,
  fix,
});
