/** One step of a guided story: what it does, whether it is done, and how to do it. */
export type StoryStep = { label: string; detail: string; done: boolean; run(): void };

/** A story as a checklist: every step can be done from its own button, in order. */
export function StoryGuide(props: {
  id: string;
  title: string;
  blurb: string;
  steps: StoryStep[];
  busy: boolean;
}) {
  const next = props.steps.findIndex((s) => !s.done);
  return (
    <section id={props.id} class="story card" aria-labelledby={`${props.id}-title`}>
      <h3 id={`${props.id}-title`}>{props.title}</h3>
      <p class="muted">{props.blurb}</p>
      <ol class="steps">
        {props.steps.map((step, i) => {
          const state = step.done ? 'done' : i === next ? 'next' : 'later';
          return (
            <li key={step.label} class={`step step-${state}`}>
              <button
                type="button"
                onClick={step.run}
                disabled={props.busy || state === 'later'}
                aria-describedby={`${props.id}-step-${i}`}
                aria-current={state === 'next' ? 'step' : undefined}
              >
                <span class="step-mark" aria-hidden="true">
                  {step.done ? '✓' : i + 1}
                </span>
                {step.label}
                {step.done && <span class="visually-hidden"> (done)</span>}
              </button>
              <span id={`${props.id}-step-${i}`} class="muted small">
                {step.detail}
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
