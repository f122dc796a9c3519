import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.js';
import type { DicomPath } from './dicomweb.service.js';

type Params = { study?: string; series?: string; instance?: string };

/** The study, series and instance UIDs a DICOMweb route's URL names, as far as it names them. */
export function pathOf(request: FastifyRequest): DicomPath {
  const params = request.params as Params;
  return { study: params.study, series: params.series, instance: params.instance };
}

/** The UIDs of a route under `…/instances/:instance`, which names all three. */
export function instancePathOf(request: FastifyRequest): Required<DicomPath> {
  const { study, series, instance } = pathOf(request);
  if (!study || !series || !instance) {
    throw new AppError('NOT_FOUND');
  }
  return { study, series, instance };
}
