import type { RefObject } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';

/**
 * Whether the element scrolls (its content is taller or wider than its box): only then does a
 * keyboard user need to focus it to scroll it (WCAG 2.1.1), so only then is it a Tab stop.
 */
export function useScrollable(ref: RefObject<HTMLElement | null>, content: string): boolean {
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (element === null) return;
    setScrolls(
      element.scrollHeight > element.clientHeight + 1 ||
        element.scrollWidth > element.clientWidth + 1,
    );
  }, [content]);
  return scrolls;
}
