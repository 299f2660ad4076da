import { type Constraint, optionsLeft, optionsLeftNote, type PyObject } from '@parley/consensus';

/**
 * Under a draft's red lines: how many of the options they leave, as a warning when none is left
 * (a deadlock before anyone has confirmed). Nothing while there are no red lines.
 */
export function OptionsLeft(props: {
  hard: readonly Constraint[];
  options: readonly PyObject[];
  /** What the screen calls them ("red lines" unless said). */
  noun?: string;
}) {
  const note = optionsLeftNote(props.hard, props.options, props.noun);
  if (note === null) return null;
  return optionsLeft(props.hard, props.options) === 0 ? (
    <p class="problem options-left" role="alert">
      {note}
    </p>
  ) : (
    <p class="muted options-left">{note}</p>
  );
}
