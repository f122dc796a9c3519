import { useEffect, useMemo } from 'react';
import type { StackViewport } from '@cornerstonejs/core';
import { useReportedAnnotations } from '../api/reported-annotations';
import { measurementsOfSeries } from '../reported-measurements';
import { seriesTargets } from './annotation-sync';
import { hideReported, showReported } from './reported-drawing';
import type { StackSlice } from './slice-order';

/**
 * Draws, read-only, the measurements of the study's Structured Reports that fall on this series'
 * frames, once its first image is drawn; a failed read draws nothing (the study's panel says so).
 */
export function useReportedDrawing(options: {
  itemUid: string;
  seriesUid: string;
  slices: StackSlice[] | undefined;
  viewport: StackViewport | null;
}) {
  const { itemUid, seriesUid, slices, viewport } = options;
  const reports = useReportedAnnotations(itemUid);
  const measurements = useMemo(
    () => measurementsOfSeries(reports.data ?? [], seriesUid),
    [reports.data, seriesUid],
  );
  useEffect(() => {
    if (!viewport || !slices || measurements.length === 0) {
      return undefined;
    }
    const drawn = showReported(measurements, seriesTargets(seriesUid, slices), viewport);
    viewport.render();
    return () => hideReported(drawn);
  }, [viewport, slices, seriesUid, measurements]);
}
