import { useRef, useState } from 'preact/hooks';
import { callCase, newIdempotencyKey } from './cases-client.js';

const EXAMPLE_OPTIONS =
  'plan=A, rent=950, weeks=4\nplan=B, rent=1100, weeks=6\nplan=E, rent=920, weeks=5';

/** `rent=950, weeks=4` per line -> option objects; numbers read as numbers. */
export function readOptionLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .map((line, i) => {
      const option: Record<string, unknown> = {};
      for (const part of line.split(',')) {
        const [key, ...rest] = part.split('=');
        const value = rest.join('=').trim();
        if (key === undefined || key.trim() === '' || value === '') {
          throw new Error(`option ${i + 1}: write each detail as name=value, separated by commas`);
        }
        option[key.trim()] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
      }
      return option;
    });
}

/** Starting a case: what is decided, the options, who decides. */
export function StartForm() {
  const [made, setMade] = useState<{
    organizer_link: string;
    links: { name: string; link: string }[];
  } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [parties, setParties] = useState(['', '', '']);
  const attempt = useRef<{ body: string; key: string } | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    try {
      const body = {
        title: form.get('title'),
        decision: form.get('decision'),
        organizer: form.get('organizer'),
        options: readOptionLines(String(form.get('options') ?? '')),
        parties: parties.map((p) => p.trim()).filter((p) => p !== ''),
      };
      // Sending the same case again (after an error or a lost answer) reuses its key, so it
      // cannot open a second case; a changed form is a new case with a new key.
      const text = JSON.stringify(body);
      if (attempt.current?.body !== text) {
        attempt.current = { body: text, key: newIdempotencyKey() };
      }
      const answer = await callCase('cases', null, body, {
        'idempotency-key': attempt.current.key,
      });
      setMade(answer as typeof made);
      setProblem(null);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };

  if (made !== null) {
    return (
      <section class="card" aria-labelledby="made-title">
        <h2 id="made-title">Your case is open</h2>
        <p>
          Give each person their own link, privately (by message or in person). Each link opens the
          case for that person only and works for 72 hours.
        </p>
        <ul class="links">
          {made.links.map((l) => (
            <li key={l.link}>
              <strong>{l.name}</strong>
              <input readOnly value={l.link} aria-label={`Link for ${l.name}`} />
            </li>
          ))}
        </ul>
        <p>
          Keep your own link: it shows everyone's progress and can send a new link if one gets lost.
        </p>
        <a class="button primary" href={made.organizer_link}>
          Open my case page
        </a>
      </section>
    );
  }
  return (
    <form class="card" onSubmit={submit} aria-labelledby="start-title">
      <h2 id="start-title">Start a case</h2>
      <p class="muted">
        Everyone says privately what they need and what they cannot accept. Parley proposes an
        option that crosses no one's limits, and everyone decides whether to accept it.
      </p>
      <label for="case-title">Title</label>
      <input id="case-title" name="title" required maxLength={200} placeholder="Our new lease" />
      <label for="case-decision">What do you need to decide?</label>
      <textarea
        id="case-decision"
        name="decision"
        required
        rows={2}
        placeholder="Which lease do we sign?"
      />
      <label for="case-options">The options, one per line (name=value, separated by commas)</label>
      <textarea id="case-options" name="options" required rows={4} value={EXAMPLE_OPTIONS} />
      <label for="case-organizer">Your name</label>
      <input id="case-organizer" name="organizer" required maxLength={80} />
      <fieldset>
        <legend>Who decides (2 to 5 people, you too if you take part)</legend>
        {parties.map((p, i) => (
          <div key={i} class="row">
            <label class="visually-hidden" for={`party-${i}`}>{`Person ${i + 1}`}</label>
            <input
              id={`party-${i}`}
              value={p}
              placeholder={`Person ${i + 1}`}
              onInput={(e) =>
                setParties(
                  parties.map((q, j) =>
                    j === i ? (e.currentTarget as HTMLInputElement).value : q,
                  ),
                )
              }
            />
          </div>
        ))}
        {parties.length < 5 && (
          <button type="button" onClick={() => setParties([...parties, ''])}>
            Add a person
          </button>
        )}
      </fieldset>
      {problem !== null && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <button class="primary big" type="submit">
        Open the case
      </button>
    </form>
  );
}
