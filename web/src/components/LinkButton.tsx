import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A link styled as a Bootstrap button (it navigates, so it stays a link for assistive technology). */
export function LinkButton({
  to,
  variant = 'primary',
  size,
  onIntent,
  children,
}: {
  to: string;
  variant?: string;
  size?: 'sm' | 'lg';
  /** The user is about to follow the link: a pointer over it, or the keyboard's focus on it. */
  onIntent?: () => void;
  children: ReactNode;
}) {
  return (
    <Link
      to={to}
      className={`btn btn-${variant}${size ? ` btn-${size}` : ''}`}
      onPointerEnter={onIntent}
      onFocus={onIntent}
    >
      {children}
    </Link>
  );
}
