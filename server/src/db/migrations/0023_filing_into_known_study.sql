-- Filing into a study this server has filed before, in one statement where a STOW-RS request used
-- two (filing_state, then file_study_instances): studies.repository.ts fileInstances with
-- `expected`, from what the last filing of the study found (known-studies.ts). The function checks
-- here what filing_state would have been asked for: the patient's name and birth date are still
-- those the wrong-patient guard was run against (`patient_details` as filing_state builds them;
-- null when the uploader confirmed a mismatch), a SOP Instance UID the patient holds in any of
-- their studies is not stored again, and the uploader's storage quota holds the instances left.
-- Anything else than expected fails it all before a row is written (RA409: the caller's state was
-- stale; RA413: the quota), and file_study_instances checks the study under its lock as ever.
CREATE FUNCTION file_known_study_instances(
  namespace uuid, study_uid text, item uuid, new_series jsonb, new_instances jsonb, audit jsonb,
  patient_details jsonb, uploader uuid, quota bigint
) RETURNS SETOF text AS $$
DECLARE
  sops text[];
  held text[];
  fresh jsonb;
BEGIN
  IF patient_details IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM users u
    WHERE u.id = namespace
      AND jsonb_build_object('firstName', u.first_name, 'lastName', u.last_name, 'dob', u.dob) = patient_details
  ) THEN
    RAISE EXCEPTION 'the patient changed while the study was being filed' USING ERRCODE = 'RA409';
  END IF;
  -- Looked up by UID (the index on sop_instance_uid), as filing_state does, not by the patient.
  sops := ARRAY(SELECT x.value->>'sop_instance_uid' FROM jsonb_array_elements(new_instances) AS x);
  held := ARRAY(
    SELECT i.sop_instance_uid FROM dicom_instances i JOIN studies s ON s.item_id = i.item_id
    WHERE s.namespace_id = namespace AND i.sop_instance_uid = ANY(sops)
  );
  SELECT coalesce(jsonb_agg(x.value), '[]') INTO fresh
  FROM jsonb_array_elements(new_instances) AS x
  WHERE NOT (x.value->>'sop_instance_uid' = ANY(held));
  IF (SELECT coalesce(sum(a.size), 0) FROM archive_items a WHERE a.uploader_id = uploader)
      + (SELECT coalesce(sum((x.value->>'size')::bigint), 0) FROM jsonb_array_elements(fresh) AS x) > quota THEN
    RAISE EXCEPTION 'the uploader''s storage is full' USING ERRCODE = 'RA413';
  END IF;
  RETURN QUERY SELECT file_study_instances(namespace, study_uid, item, new_series, fresh, audit);
END;
$$ LANGUAGE plpgsql;
