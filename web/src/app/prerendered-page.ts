/**
 * The landing page is prerendered at build time into the HTML the server sends for `/`
 * (#prerendered-page), so it paints before the app's code arrives. The app renders into a hidden
 * #root meanwhile, and takes the prerendered copy's place once it shows a page itself: same markup,
 * so nothing moves, and no spinner replaces the page while the session is being checked.
 */
export const PRERENDERED_PAGE_ID = 'prerendered-page';

export function showAppInPlaceOfPrerenderedPage(): void {
  const prerendered = document.getElementById(PRERENDERED_PAGE_ID);
  if (!prerendered) {
    return;
  }
  prerendered.remove();
  document.getElementById('root')!.hidden = false;
}
