import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PersonInFiles } from '@ra/shared';
import { ApiError } from '../../../lib/api-client';
import { patientMismatchOf } from '../../../lib/api/upload-study';
import { assignIncoming, INCOMING_QUERY_KEY } from '../api/incoming';

/** The one incoming study whose files name someone else, waiting for the physician to confirm. */
export interface PendingMismatch {
  studyUid: string;
  patientUid: string;
  /** Every person the study's files name, with how many files name each. */
  found: PersonInFiles[];
}

export interface Filed {
  itemUid: string;
  patientUid: string;
}

/**
 * Filing incoming studies one at a time: a study whose files name someone else is filed only once
 * the physician confirms; a filed (or vanished) study leaves the list.
 */
export function useAssignIncoming() {
  const queryClient = useQueryClient();
  const [busyUid, setBusyUid] = useState<string | null>(null);
  const [mismatch, setMismatch] = useState<PendingMismatch | null>(null);
  const [filed, setFiled] = useState<Filed | null>(null);
  const [error, setError] = useState<string | null>(null);

  async function assign(studyUid: string, patientUid: string, isConfirmed = false) {
    setBusyUid(studyUid);
    setError(null);
    setFiled(null);
    setMismatch(null);
    try {
      const result = await assignIncoming(studyUid, {
        patient: patientUid,
        confirm_patient_mismatch: isConfirmed,
      });
      await queryClient.invalidateQueries({ queryKey: INCOMING_QUERY_KEY });
      await queryClient.invalidateQueries({ queryKey: ['patients'] });
      setFiled({ itemUid: result.item_uid, patientUid });
    } catch (err) {
      const found = patientMismatchOf(err)?.found;
      if (found) {
        setMismatch({ studyUid, patientUid, found });
        return;
      }
      setError(err instanceof ApiError ? err.message : 'The study could not be filed.');
      if (err instanceof ApiError && (err.status === 404 || err.status === 409)) {
        // Gone, or filed elsewhere meanwhile: the list should no longer offer it.
        await queryClient.invalidateQueries({ queryKey: INCOMING_QUERY_KEY });
      }
    } finally {
      setBusyUid(null);
    }
  }

  function confirmMismatch() {
    if (mismatch) {
      void assign(mismatch.studyUid, mismatch.patientUid, true);
    }
  }

  return {
    busyUid,
    mismatch,
    filed,
    error,
    assign: (studyUid: string, patientUid: string) => void assign(studyUid, patientUid),
    confirmMismatch,
    cancelMismatch: () => setMismatch(null),
  };
}
