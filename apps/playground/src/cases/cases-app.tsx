import { useCallback, useEffect, useState } from 'preact/hooks';
import { type CaseView, callCase, linkToken } from './cases-client.js';
import { OrganizerScreen } from './organizer-screen.js';
import { PartyScreen } from './party-screen.js';
import { StartForm } from './start-form.js';

/**
 * The cases pages: with no link, a form to start a case; with the initiator's link, progress
 * and the links to hand over; with a party's link, that party's private journey from the
 * interview to the receipt. The link's token stays in the fragment and goes to the server only
 * in a header.
 */
export function CasesApp() {
  const [token, setToken] = useState<string | null>(linkToken());
  const [view, setView] = useState<CaseView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const onHash = () => setToken(linkToken());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);

  const refresh = useCallback(async () => {
    if (token === null) return;
    try {
      setView((await callCase('case', token)) as CaseView);
      setProblem(null);
    } catch (error) {
      setView(null);
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }, [token]);

  useEffect(() => {
    void refresh();
    if (token === null) return;
    // Others act meanwhile: look again every few seconds (no push channel in this build).
    const timer = setInterval(() => void refresh(), 4_000);
    return () => clearInterval(timer);
  }, [token, refresh]);

  return (
    <main class="cases">
      <header class="cases-head">
        <p class="brand">Parley</p>
        <h1>{view === null ? 'Decide together' : view.title}</h1>
        {view !== null && <p class="decision">{view.decision}</p>}
      </header>
      {token === null && <StartForm />}
      {token !== null && problem !== null && (
        <section class="card" role="alert">
          <h2>This link does not open a case</h2>
          <p>{problem}</p>
        </section>
      )}
      {token !== null && view !== null && view.you === undefined && (
        <OrganizerScreen view={view} token={token} onChange={setView} />
      )}
      {token !== null && view?.you !== undefined && (
        <PartyScreen view={view} token={token} onChange={setView} />
      )}
      <footer class="small muted">Parley helps people agree; it is not legal advice.</footer>
    </main>
  );
}
