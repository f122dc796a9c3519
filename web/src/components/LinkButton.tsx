import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A link styled as a Bootstrap button (it navigates, so it stays a link for assistive technology). */
export function LinkButton({
  to,
  variant = 'primary',
  size,
  children,
}: {
  to: string;
  variant?: string;
  size?: 'sm' | 'lg';
  children: ReactNode;
}) {
  return (
    <Link to={to} className={`btn btn-${variant}${size ? ` btn-${size}` : ''}`}>
      {children}
    </Link>
  );
}
