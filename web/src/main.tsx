import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './bootstrap-subset.scss';
import './styles.css';
import { App } from './app/App';
import { preloadCurrentPage } from './app/router';

preloadCurrentPage();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
