import { describe, expect, it } from 'vitest';
import { isTextEntry } from './keyboard';

function element(html: string): HTMLElement {
  const holder = document.createElement('div');
  holder.innerHTML = html;
  return holder.firstElementChild as HTMLElement;
}

describe('isTextEntry', () => {
  it('leaves text fields, text areas, lists and editable text to the user', () => {
    expect(isTextEntry(element('<input type="text">'))).toBe(true);
    expect(isTextEntry(element('<input type="number">'))).toBe(true);
    expect(isTextEntry(element('<input>'))).toBe(true);
    expect(isTextEntry(element('<textarea></textarea>'))).toBe(true);
    expect(isTextEntry(element('<select></select>'))).toBe(true);
    const editable = element('<div contenteditable="true"><span>x</span></div>');
    expect(isTextEntry(editable.firstElementChild)).toBe(true);
  });

  it('gives the viewer the keys of buttons, sliders, the stage and anything else', () => {
    expect(isTextEntry(element('<button>Length</button>'))).toBe(false);
    expect(isTextEntry(element('<input type="range">'))).toBe(false);
    expect(isTextEntry(element('<input type="checkbox">'))).toBe(false);
    expect(isTextEntry(element('<div tabindex="0"></div>'))).toBe(false);
    expect(isTextEntry(null)).toBe(false);
  });
});
