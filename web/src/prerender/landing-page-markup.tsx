import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { PATHS } from '../lib/paths';
import { NavBar } from '../app/layout/NavBar';
import { PageFrame } from '../app/layout/PageFrame';
import { LandingPage } from '../features/landing/pages/LandingPage';

/**
 * The landing page as the app first shows it to anyone (radiologists still loading), rendered at
 * build time. The account menu is left out: who is signed in is known only in the browser.
 */
export function render(): string {
  return renderToString(
    <StaticRouter location={PATHS.home}>
      <QueryClientProvider client={new QueryClient()}>
        <PageFrame header={<NavBar />}>
          <LandingPage />
        </PageFrame>
      </QueryClientProvider>
    </StaticRouter>,
  );
}
