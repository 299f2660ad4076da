import { optionsLeftSentence } from '@parley/consensus';

/**
 * How many of the options a person's red lines leave, as a warning when none is left (a
 * deadlock before anyone has confirmed). Nothing when `left` is null: no red lines
 * (`redLinesLeave`).
 */
export function OptionsLeft(props: {
  left: number | null;
  total: number;
  /** What the screen calls them ("red lines" unless said). */
  noun?: string;
}) {
  const { left, total } = props;
  if (left === null || total === 0) return null;
  const sentence = optionsLeftSentence(left, total, props.noun);
  return left === 0 ? (
    <p class="problem options-left" role="alert">
      {sentence}
    </p>
  ) : (
    <p class="muted options-left">{sentence}</p>
  );
}
