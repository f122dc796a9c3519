import {
  cache,
  getConfiguration,
  init as initCore,
  setConfiguration,
  setUseCPURendering,
} from '@cornerstonejs/core';
import { init as initDicomImageLoader } from '@cornerstonejs/dicom-image-loader';
import {
  AngleTool,
  ArrowAnnotateTool,
  EllipticalROITool,
  LengthTool,
  PanTool,
  PlanarRotateTool,
  ProbeTool,
  RectangleROITool,
  StackScrollTool,
  WindowLevelTool,
  ZoomTool,
  addTool,
  init as initTools,
} from '@cornerstonejs/tools';
import { getAccessToken } from '../../lib/api-client';
import { dicomwebAccess } from '../../lib/dicomweb';
import { registerRasterImageLoader } from './raster-image-loader';
import { checkFrameResponse } from './codestream-check';

/**
 * Decoded images kept in memory across viewers: a 500-slice CT at 16 bits is about 260 MB, so
 * two such series fit, and older images are dropped before the tab runs out of memory.
 */
export const IMAGE_CACHE_BYTES = 768 * 1024 ** 2;

/** The tools the viewer offers, registered once. */
export const VIEWER_TOOLS = [
  WindowLevelTool,
  PanTool,
  ZoomTool,
  PlanarRotateTool,
  StackScrollTool,
  LengthTool,
  AngleTool,
  EllipticalROITool,
  RectangleROITool,
  ProbeTool,
  ArrowAnnotateTool,
] as const;

let ready: Promise<void> | undefined;

/**
 * Whether WebGL here is drawn by the processor (SwiftShader, llvmpipe: no GPU, or a GPU the
 * browser refuses). Copying every frame out of such a context costs more than drawing a slice
 * with the canvas directly, so the viewer then draws on the processor.
 */
export function hasSoftwareWebGl(): boolean {
  const gl = document.createElement('canvas').getContext('webgl2');
  if (!gl) {
    return true;
  }
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  const renderer = String(
    info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER),
  );
  gl.getExtension('WEBGL_lose_context')?.loseContext();
  return /swiftshader|llvmpipe|software/i.test(renderer);
}

/**
 * Starts Cornerstone once per page: the renderer, the DICOMweb image loader (frames fetched from
 * our /dicomweb with the signed-in user's bearer token, or a share link's DICOMweb with its
 * access code, decoded in web workers once their
 * codestream is checked), the loader of
 * raster archive items (JPEG, PNG) and the tools.
 */
export function setUpCornerstone(): Promise<void> {
  ready ??= Promise.resolve().then(() => {
    // A layout's viewports share one rendering engine (shared-engine.ts), and its one WebGL
    // context (Cornerstone's default pools seven per engine).
    initCore();
    const configuration = getConfiguration();
    setConfiguration({ ...configuration, rendering: { ...configuration.rendering, webGlContextCount: 1 } });
    if (hasSoftwareWebGl()) {
      setUseCPURendering(true);
    }
    initDicomImageLoader({
      // One decoder per spare core: the page itself keeps one.
      maxWebWorkers: Math.max(1, Math.min(4, (navigator.hardwareConcurrency || 2) - 1)),
      // Read per request, so a token refreshed meanwhile is the one sent; a share link's frames
      // carry its access code instead (lib/dicomweb.ts).
      beforeSend: (): Record<string, string> => {
        const { headers, isShared } = dicomwebAccess();
        const token = isShared ? null : getAccessToken();
        return token ? { ...headers, Authorization: `Bearer ${token}` } : { ...headers };
      },
      // A frame refused here fails to load, and the viewer says it could not be decoded. Refused
      // by a rejected promise: the loader waits on it, and a throw would leave the image pending.
      beforeProcessing: (xhr: XMLHttpRequest): Promise<ArrayBuffer> =>
        new Promise((resolve) => {
          checkFrameResponse(xhr.responseURL, xhr.response as ArrayBuffer);
          resolve(xhr.response as ArrayBuffer);
        }),
    });
    registerRasterImageLoader();
    initTools();
    for (const tool of VIEWER_TOOLS) {
      addTool(tool);
    }
    cache.setMaxCacheSize(IMAGE_CACHE_BYTES);
  });
  return ready;
}
