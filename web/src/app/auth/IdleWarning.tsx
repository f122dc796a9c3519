import { useEffect, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { apiRequest } from '../../lib/api-client';

/** Shared by every tab of this origin, so activity in one keeps the others from warning. */
const ACTIVITY_KEY = 'ra-last-activity';
const ACTIVITY_EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;
/** Activity is recorded at most this often, and the server told at most once a minute. */
const RECORD_EVERY_MS = 5_000;
const TELL_SERVER_EVERY_MS = 60_000;
const WARN_BEFORE_MS = 60_000;
const CHECK_EVERY_MS = 1_000;

function lastActivity(own: number): number {
  const shared = Number(window.localStorage.getItem(ACTIVITY_KEY));
  return Number.isFinite(shared) ? Math.max(own, shared) : own;
}

/**
 * Warns a minute before the server ends an idle session (docs/security.md §5) and signs out when it
 * has. Moving the mouse or typing counts as activity; the server hears of it at most once a minute.
 */
export function IdleWarning({
  idleTimeoutSeconds,
  onExpired,
}: {
  idleTimeoutSeconds: number;
  onExpired: () => void;
}) {
  const lastActive = useRef(Date.now());
  const lastTold = useRef(Date.now());
  const [secondsLeft, setSecondsLeft] = useState<number | null>(null);
  const idleMs = idleTimeoutSeconds * 1000;

  useEffect(() => {
    function handleActivity() {
      const now = Date.now();
      if (now - lastActive.current < RECORD_EVERY_MS) {
        return;
      }
      lastActive.current = now;
      window.localStorage.setItem(ACTIVITY_KEY, String(now));
      if (now - lastTold.current >= TELL_SERVER_EVERY_MS) {
        lastTold.current = now;
        // Any request the person causes counts on the server; this one only says "still here".
        void apiRequest('/api/user/me').catch(() => undefined);
      }
    }
    for (const name of ACTIVITY_EVENTS) {
      window.addEventListener(name, handleActivity, { passive: true });
    }
    const timer = window.setInterval(() => {
      const left = idleMs - (Date.now() - lastActivity(lastActive.current));
      if (left <= 0) {
        onExpired();
      } else {
        setSecondsLeft(left <= WARN_BEFORE_MS ? Math.ceil(left / 1000) : null);
      }
    }, CHECK_EVERY_MS);
    return () => {
      for (const name of ACTIVITY_EVENTS) {
        window.removeEventListener(name, handleActivity);
      }
      window.clearInterval(timer);
    };
  }, [idleMs, onExpired]);

  async function handleStay() {
    const now = Date.now();
    lastActive.current = now;
    lastTold.current = now;
    window.localStorage.setItem(ACTIVITY_KEY, String(now));
    setSecondsLeft(null);
    await apiRequest('/api/user/me').catch(() => undefined);
  }

  return (
    <Modal
      show={secondsLeft !== null}
      onHide={() => void handleStay()}
      aria-labelledby="idle-warning-title"
      centered
    >
      <Modal.Header closeButton>
        <Modal.Title id="idle-warning-title">Are you still there?</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        <p role="alert">
          For your privacy you will be signed out in {secondsLeft ?? 0} seconds because nothing has happened
          for a while.
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="primary" onClick={() => void handleStay()} autoFocus>
          Stay signed in
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
