/** Input types whose keys are the viewer's to take: they do not take text. */
const KEYLESS_INPUTS = new Set(['range', 'checkbox', 'radio', 'button', 'submit', 'reset', 'color', 'file']);

/**
 * Whether a key pressed on `target` is text being typed (a text field, a text area, a list, an
 * editable element): the viewer's shortcuts leave those keys alone, and take every other.
 */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) {
    return false;
  }
  if (target instanceof HTMLInputElement) {
    return !KEYLESS_INPUTS.has(target.type);
  }
  return (
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    target.isContentEditable ||
    target.closest('[contenteditable="true"]') !== null
  );
}
