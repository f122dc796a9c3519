import { createContext, useContext } from 'react';

/** A short message about something that just happened, with a link to what it made. */
export interface ToastMessage {
  message: string;
  /** Success toasts leave by themselves; errors stay until dismissed. */
  variant: 'success' | 'danger' | 'info';
  link?: { to: string; label: string };
}

export interface Toasts {
  show(toast: ToastMessage): void;
}

export const ToastContext = createContext<Toasts | null>(null);

/** Shows toasts in the page's corner (ToastProvider in the layout holds them across pages). */
export function useToasts(): Toasts {
  const toasts = useContext(ToastContext);
  if (!toasts) {
    throw new Error('useToasts needs a ToastProvider above it');
  }
  return toasts;
}
