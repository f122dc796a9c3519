-- What filing files under a patient starts from (studies.repository.ts findFilingState), now with
-- the bytes the uploader has stored (their storage quota's use): one statement for what a STOW-RS
-- request used to ask in two, on the embedded database's one thread. The rest is as in 0018.
DROP FUNCTION IF EXISTS filing_state(uuid, text[], text[]);
--> statement-breakpoint
CREATE FUNCTION filing_state(patient uuid, uploader uuid, study_uids text[], sop_uids text[])
RETURNS TABLE (patient_details json, filed json, stored json, uploader_bytes bigint) AS $$
BEGIN
  RETURN QUERY SELECT
    (SELECT json_build_object('firstName', u.first_name, 'lastName', u.last_name, 'dob', u.dob)
      FROM users u WHERE u.id = patient),
    (SELECT coalesce(json_agg(json_build_object('itemId', s.item_id, 'studyInstanceUid', s.study_instance_uid,
        'patientId', a.patient_id, 'receiverId', a.receiver_id)), '[]')
      FROM studies s JOIN archive_items a ON a.id = s.item_id
      WHERE s.namespace_id = patient AND s.study_instance_uid = ANY(study_uids)),
    (SELECT coalesce(json_agg(i.sop_instance_uid), '[]')
      FROM dicom_instances i JOIN studies s ON s.item_id = i.item_id
      WHERE s.namespace_id = patient AND i.sop_instance_uid = ANY(sop_uids)),
    (SELECT coalesce(sum(a.size), 0)::bigint FROM archive_items a WHERE a.uploader_id = uploader);
END;
$$ LANGUAGE plpgsql;
