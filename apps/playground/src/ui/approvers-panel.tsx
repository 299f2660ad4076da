import { useState } from 'preact/hooks';
import { type Approver, addApprover, approverNameProblem } from '../protocol/approvers.js';
import { keyLabel } from '../protocol/grant-text.js';

/**
 * docs/extensions.md §E4: the people who approve commits together. Each has a key made in this
 * browser (as if they stood at this screen in turn); a grant can then require N of them to
 * approve each commit. They need not be paired: a service counts an approver's consent without
 * trusting their key as a principal.
 */
export function ApproversPanel(props: {
  approvers: Approver[];
  changed(next: Approver[]): void;
  remove(publicKey: string): void;
}) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const why = approverNameProblem(name, props.approvers);
    if (why !== undefined) return setProblem(why);
    setProblem(undefined);
    props.changed(await addApprover(name, props.approvers));
    setName('');
  };
  return (
    <section class="approvers" aria-labelledby="approvers-title">
      <h3 id="approvers-title">People who approve</h3>
      <p class="muted small">
        Add the people who must agree before the agent commits, for example 2 of 3. Each gets a key
        made in this browser; a grant can then require their approvals (§E4).
      </p>
      {props.approvers.length > 0 && (
        <ul aria-labelledby="approvers-title">
          {props.approvers.map((a) => (
            <li key={a.publicKey}>
              <strong>{a.name}</strong> <code title={a.publicKey}>{keyLabel(a.publicKey)}</code>
              <button
                type="button"
                class="link approver-remove"
                onClick={() => props.remove(a.publicKey)}
                aria-label={`Remove ${a.name}`}
              >
                remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline" onSubmit={submit}>
        <label class="visually-hidden" for="approver-name">
          Name of the person to add
        </label>
        <input
          id="approver-name"
          autoComplete="off"
          placeholder="Name, e.g. Ana"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          aria-describedby={problem === undefined ? undefined : 'approver-problem'}
        />
        <button type="submit">Add person</button>
      </form>
      {problem !== undefined && (
        <p id="approver-problem" class="problem" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
