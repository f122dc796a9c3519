import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { ToastContext, type ToastMessage, type Toasts } from './toast-context';

/** How long a success or info toast stays on screen. */
export const TOAST_DELAY_MS = 6_000;

interface ShownToast extends ToastMessage {
  id: number;
}

function ToastItem({ toast, dismiss }: { toast: ShownToast; dismiss: (id: number) => void }) {
  const isError = toast.variant === 'danger';
  const { id } = toast;
  useEffect(() => {
    if (isError) {
      return;
    }
    const timer = setTimeout(() => dismiss(id), TOAST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [isError, id, dismiss]);
  const onDismiss = () => dismiss(id);
  const onDark = toast.variant !== 'info';
  return (
    <div
      className={`toast show border-0 text-bg-${toast.variant}`}
      role={isError ? 'alert' : 'status'}
      aria-live={isError ? 'assertive' : 'polite'}
      aria-atomic="true"
    >
      <div className="toast-body d-flex align-items-start gap-2">
        <span className="flex-grow-1">
          {toast.message}
          {toast.link && (
            <>
              {' '}
              <Link to={toast.link.to} className={onDark ? 'link-light' : undefined} onClick={onDismiss}>
                {toast.link.label}
              </Link>
            </>
          )}
        </span>
        <button
          type="button"
          className={`btn-close ${onDark ? 'btn-close-white' : ''}`}
          aria-label="Dismiss"
          onClick={onDismiss}
        />
      </div>
    </div>
  );
}

/**
 * Holds the toasts of the whole app and draws them in the top corner, above the page. They are
 * read out by screen readers as they appear (errors at once, the rest politely); success and
 * info toasts leave after a few seconds, errors when dismissed; one pointing to what was made
 * links to it.
 */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<ShownToast[]>([]);
  const nextId = useRef(0);
  const dismiss = useCallback((id: number) => setShown((all) => all.filter((toast) => toast.id !== id)), []);
  const toasts = useMemo<Toasts>(
    () => ({
      show: (toast) => setShown((all) => [...all.slice(-3), { ...toast, id: nextId.current++ }]),
    }),
    [],
  );
  return (
    <ToastContext.Provider value={toasts}>
      {children}
      <div className="toast-container position-fixed top-0 end-0 p-3" style={{ zIndex: 1090 }}>
        {shown.map((toast) => (
          <ToastItem key={toast.id} toast={toast} dismiss={dismiss} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}
