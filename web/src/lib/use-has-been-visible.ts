import { useEffect, useState } from 'react';

/**
 * Whether `element` has come within `margin` of what `root` shows (the viewport when null). Once
 * true it stays true: what was loaded when it scrolled into view stays loaded when it scrolls out.
 */
export function useHasBeenVisible(element: Element | null, root: Element | null, margin = '0px'): boolean {
  const [hasBeenVisible, setHasBeenVisible] = useState(false);
  useEffect(() => {
    if (hasBeenVisible || !element) {
      return undefined;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setHasBeenVisible(true);
        }
      },
      { root, rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [element, root, margin, hasBeenVisible]);
  return hasBeenVisible;
}
