import type { CaseView } from './cases-client.js';

const SHEET: Record<string, string> = {
  none: 'not started',
  draft: 'working on it',
  confirmed: 'confirmed',
};
const ANSWER: Record<string, string> = {
  none: '',
  accepted: 'accepted',
  rejected: 'did not accept',
};

/** Where each person is: names and progress only, never what anyone said. */
export function ProgressList({ view }: { view: CaseView }) {
  return (
    <ul class="progress" aria-label="Progress">
      {view.parties.map((p) => (
        <li key={p.name} data-sheet={p.sheet} data-answer={p.answer}>
          <span class="who">{p.name}</span>
          <span class="state">
            {SHEET[p.sheet]}
            {p.answer !== 'none' ? `, ${ANSWER[p.answer]}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The state of the case in plain words. */
export function stateWords(view: CaseView): string {
  switch (view.state) {
    case 'eliciting':
      return `Round ${view.round} of 3: everyone is stating privately what they need.`;
    case 'ratifying':
      return `Round ${view.round} of 3: there is a proposal; everyone decides whether to accept it.`;
    case 'revising':
      return view.proposal?.status === 'deadlock'
        ? `Round ${view.round} of 3 ended: no option met everyone's limits. Someone may change their own rules, or the case can be closed.`
        : `Round ${view.round} of 3 ended: not everyone accepted. Someone may change their own rules, or the case can be closed.`;
    case 'agreed':
      return 'Agreed: everyone accepted the proposal.';
    case 'rejected':
      return 'Closed without agreement: not everyone accepted the proposal.';
    case 'deadlocked':
      return "Closed without agreement: no option met everyone's limits. That is an honest result, not anyone's fault.";
    case 'cancelled':
      return 'This case was cancelled.';
  }
}
