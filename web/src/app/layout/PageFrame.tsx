import type { ReactNode } from 'react';
import { Footer } from './Footer';

/** What every page sits in: the header on top, the page, and the footer at the bottom. */
export function PageFrame({ header, children }: { header: ReactNode; children: ReactNode }) {
  return (
    <div className="d-flex flex-column min-vh-100">
      {header}
      <main className="flex-grow-1">{children}</main>
      <Footer />
    </div>
  );
}
