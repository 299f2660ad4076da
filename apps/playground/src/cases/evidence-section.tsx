import { useState } from 'preact/hooks';
import { type CaseView, callCase, downloadCase } from './cases-client.js';

/** Files: private unless their owner shares one, after confirming. */
export function EvidenceSection(props: {
  view: CaseView;
  token: string;
  onChange(view: CaseView): void;
}) {
  const { view, token, onChange } = props;
  const you = view.you as NonNullable<CaseView['you']>;
  const [note, setNote] = useState<string | null>(null);
  const [sharing, setSharing] = useState<string | null>(null);
  const [sure, setSure] = useState(false);
  const upload = async (event: Event) => {
    const input = event.currentTarget as HTMLInputElement;
    const file = input.files?.[0];
    if (file === undefined) return;
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      let binary = '';
      for (let i = 0; i < bytes.length; i += 32_768)
        binary += String.fromCharCode(...bytes.subarray(i, i + 32_768));
      const answer = (await callCase('evidence', token, {
        filename: file.name,
        content: btoa(binary),
      })) as { case: CaseView };
      onChange(answer.case);
      setNote(`${file.name} is kept privately. Only you see it.`);
    } catch (error) {
      setNote(error instanceof Error ? error.message : String(error));
    }
    input.value = '';
  };
  const share = async (id: string, on: boolean) => {
    try {
      onChange(
        (await callCase('share', token, {
          id,
          share: on,
          confirm: on ? sure : undefined,
        })) as CaseView,
      );
      setSharing(null);
      setSure(false);
      setNote(on ? 'Shared with the others.' : 'No longer shared.');
    } catch (error) {
      setNote(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <section class="card evidence" aria-labelledby="evidence-title">
      <h2 id="evidence-title">Documents</h2>
      <p class="small muted">PDF, JPEG, PNG or DOCX up to 512 KB. Private unless you share one.</p>
      <label for="evidence-file">Add a document</label>
      <input id="evidence-file" type="file" accept=".pdf,.jpg,.jpeg,.png,.docx" onChange={upload} />
      {you.evidence.length > 0 && (
        <ul class="files">
          {you.evidence.map((e) => (
            <li key={e.id}>
              <span>
                {e.filename} ({Math.ceil(e.size / 1024)} KB,{' '}
                {e.shared === true ? 'shared' : 'private'})
              </span>
              {e.shared === true ? (
                <button type="button" class="link" onClick={() => share(e.id, false)}>
                  Stop sharing
                </button>
              ) : sharing === e.id ? (
                <span class="share-confirm">
                  <label class="check">
                    <input
                      type="checkbox"
                      checked={sure}
                      onChange={(ev) => setSure((ev.currentTarget as HTMLInputElement).checked)}
                    />
                    Everyone in this case will be able to open {e.filename}.
                  </label>
                  <button type="button" disabled={!sure} onClick={() => share(e.id, true)}>
                    Share it
                  </button>
                </span>
              ) : (
                <button type="button" class="link" onClick={() => setSharing(e.id)}>
                  Share with the others…
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {view.disclosed.filter((d) => d.owner !== you.name).length > 0 && (
        <>
          <h3>Shared by others</h3>
          <ul class="files">
            {view.disclosed
              .filter((d) => d.owner !== you.name)
              .map((d) => (
                <li key={d.id}>
                  <button
                    type="button"
                    class="link"
                    onClick={() =>
                      downloadCase(`evidence?id=${encodeURIComponent(d.id)}`, token, d.filename)
                    }
                  >
                    {d.filename}
                  </button>{' '}
                  from {d.owner}
                </li>
              ))}
          </ul>
        </>
      )}
      <p aria-live="polite" class="note">
        {note}
      </p>
    </section>
  );
}
