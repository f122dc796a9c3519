import { describe, expect, it } from 'vitest';
import { handlePoints, storedPoints, type ImagePoint } from './annotation-geometry';

describe('annotation geometry', () => {
  it('keeps an ellipse as its bounding box and gives the tool back the ends of its axes', () => {
    const handles: ImagePoint[] = [
      [100, 40],
      [100, 160],
      [70, 100],
      [130, 100],
    ];
    const stored = storedPoints('ellipse', handles);
    expect(stored).toEqual([
      [70, 40],
      [130, 160],
    ]);
    expect(handlePoints('ellipse', stored)).toEqual(handles);
  });

  it('keeps a rectangle as two opposite corners, whichever way it was drawn', () => {
    const handles: ImagePoint[] = [
      [30, 90],
      [10, 90],
      [30, 20],
      [10, 20],
    ];
    expect(storedPoints('rectangle', handles)).toEqual([
      [10, 20],
      [30, 90],
    ]);
    expect(handlePoints('rectangle', storedPoints('rectangle', handles))).toEqual([
      [10, 20],
      [30, 20],
      [10, 90],
      [30, 90],
    ]);
  });

  it('keeps an arrow tail first, lengths, angles and probes as drawn', () => {
    const head: ImagePoint = [5, 5];
    const tail: ImagePoint = [50, 60];
    expect(storedPoints('arrow', [head, tail])).toEqual([tail, head]);
    expect(handlePoints('arrow', [tail, head])).toEqual([head, tail]);
    const angle: ImagePoint[] = [
      [0, 0],
      [10, 0],
      [10, 10],
    ];
    expect(storedPoints('angle', angle)).toEqual(angle);
    expect(handlePoints('length', angle.slice(0, 2))).toEqual(angle.slice(0, 2));
  });
});
