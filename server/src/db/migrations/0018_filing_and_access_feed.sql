-- Filing a study's instances in one statement (studies.repository.ts fileInstances): under the
-- study's lock, the study must still be the item the caller found; missing series are made, the
-- instances inserted (one already stored is skipped) and the figures of the series, the study and
-- the item raised by what was inserted. Each statement of a plpgsql function sees what committed
-- before it started, so what another filing of the study committed while this one waited for the
-- lock is counted. `audit`, when given, is the change's audit row as the audit module makes it
-- (auditRowOf), written with the instances. Returns the SOP Instance UIDs inserted. A plpgsql
-- function keeps its statements' plans, which on the embedded database costs far less than
-- planning the same SQL sent each time.
CREATE OR REPLACE FUNCTION file_study_instances(
  namespace uuid, study_uid text, item uuid, new_series jsonb, new_instances jsonb, audit jsonb
) RETURNS SETOF text AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('study:' || namespace::text || ':' || study_uid, 0));
  IF NOT EXISTS (
    SELECT 1 FROM studies s
    WHERE s.namespace_id = namespace AND s.study_instance_uid = study_uid AND s.item_id = item
  ) THEN
    RAISE EXCEPTION 'the study changed while it was being filed' USING ERRCODE = 'RA409';
  END IF;
  IF audit IS NOT NULL THEN
    INSERT INTO audit_log (actor_id, patient_id, action, record_type, record_id, ip)
    SELECT x.actor_id, x.patient_id, x.action, x.record_type, x.record_id, x.ip
    FROM jsonb_populate_record(NULL::audit_log, audit) AS x;
  END IF;
  INSERT INTO dicom_series (item_id, series_instance_uid, modality, series_number, series_description, body_part_examined)
  SELECT item, x.series_instance_uid, coalesce(x.modality, ''), x.series_number,
    coalesce(x.series_description, ''), coalesce(x.body_part_examined, '')
  FROM jsonb_to_recordset(new_series) AS x(
    series_instance_uid text, modality text, series_number integer, series_description text, body_part_examined text)
  ON CONFLICT (item_id, series_instance_uid) DO NOTHING;
  RETURN QUERY
  WITH inserted AS (
    INSERT INTO dicom_instances (item_id, series_id, sop_instance_uid, sop_class_uid, transfer_syntax_uid,
      instance_number, number_of_frames, "rows", "columns", is_image, storage_key, filename, size, metadata,
      pixel_data_offset, frame_bytes, frame_offsets)
    SELECT item, s.id, x.sop_instance_uid, x.sop_class_uid, x.transfer_syntax_uid, x.instance_number,
      coalesce(x.number_of_frames, 1), x."rows", x."columns", x.is_image, x.storage_key, coalesce(x.filename, ''),
      x.size, x.metadata, x.pixel_data_offset, x.frame_bytes, x.frame_offsets
    FROM jsonb_to_recordset(new_instances) AS x(
      series_instance_uid text, sop_instance_uid text, sop_class_uid text, transfer_syntax_uid text,
      instance_number integer, number_of_frames integer, "rows" integer, "columns" integer, is_image boolean,
      storage_key text, filename text, size bigint, metadata jsonb, pixel_data_offset bigint,
      frame_bytes bigint, frame_offsets jsonb)
    JOIN dicom_series s ON s.item_id = item AND s.series_instance_uid = x.series_instance_uid
    ON CONFLICT (item_id, sop_instance_uid) DO NOTHING
    RETURNING series_id, sop_instance_uid AS sop, size
  ), added AS (
    SELECT series_id, count(*)::integer AS instances FROM inserted GROUP BY series_id
  ), series_figures AS (
    UPDATE dicom_series SET instance_count = dicom_series.instance_count + added.instances
    FROM added WHERE dicom_series.id = added.series_id
  ), study_figures AS (
    UPDATE studies SET
      instance_count = studies.instance_count + (SELECT count(*) FROM inserted),
      series_count = (SELECT count(*) FROM dicom_series WHERE dicom_series.item_id = item),
      modalities = coalesce((SELECT array_agg(DISTINCT dicom_series.modality ORDER BY dicom_series.modality)
        FROM dicom_series WHERE dicom_series.item_id = item AND dicom_series.modality <> ''), '{}')
    WHERE studies.item_id = item
  ), item_size AS (
    UPDATE archive_items SET size = archive_items.size + (SELECT coalesce(sum(size), 0) FROM inserted)
    WHERE archive_items.id = item
  )
  SELECT sop FROM inserted;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- What filing files under a patient starts from (studies.repository.ts findFilingState): the
-- patient's name and birth date, the studies of these Study Instance UIDs filed for them, and which
-- of these SOP Instance UIDs they hold (the patient is the namespace). A function for its kept plans.
CREATE OR REPLACE FUNCTION filing_state(patient uuid, study_uids text[], sop_uids text[])
RETURNS TABLE (patient_details json, filed json, stored json) AS $$
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
      WHERE s.namespace_id = patient AND i.sop_instance_uid = ANY(sop_uids));
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- The "access" channel of the change feed (db/change-feed.ts): every change to what the access
-- decisions read (access.repository.ts) announces the patients whose decisions it can change, so
-- cached decisions (access.policy.ts) are dropped when it commits. Unlike the "archive" channel,
-- filing instances (an item's size, a study's figures) announces nothing: it changes no one's rights.
CREATE OR REPLACE FUNCTION announce_access_patient(patient uuid) RETURNS void AS $$
BEGIN
  IF patient IS NOT NULL THEN
    PERFORM pg_notify('ra_changed_access', patient::text);
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Rows with a patient_id column (archive items, physician links): their old and new patient.
CREATE OR REPLACE FUNCTION announce_access_row_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM announce_access_patient(OLD.patient_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM announce_access_patient(NEW.patient_id);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Rows that name an item (invoices, notes): the patient of their old and new item.
CREATE OR REPLACE FUNCTION announce_access_item_row_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM announce_access_patient((SELECT patient_id FROM archive_items WHERE id = OLD.item_id));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM announce_access_patient((SELECT patient_id FROM archive_items WHERE id = NEW.item_id));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Users: whether an account is a patient, and whether it exists; as a patient, the user's own id.
CREATE OR REPLACE FUNCTION announce_access_user_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM announce_access_patient(OLD.id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM announce_access_patient(NEW.id);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER archive_items_announce_access
  AFTER INSERT OR DELETE ON "archive_items"
  FOR EACH ROW EXECUTE FUNCTION announce_access_row_change();
--> statement-breakpoint
CREATE TRIGGER archive_items_moved_announce_access
  AFTER UPDATE OF id, patient_id ON "archive_items"
  FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.patient_id IS DISTINCT FROM NEW.patient_id)
  EXECUTE FUNCTION announce_access_row_change();
--> statement-breakpoint
CREATE TRIGGER patient_physicians_announce_access
  AFTER INSERT OR UPDATE OR DELETE ON "patient_physicians"
  FOR EACH ROW EXECUTE FUNCTION announce_access_row_change();
--> statement-breakpoint
CREATE TRIGGER invoices_announce_access
  AFTER INSERT OR UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION announce_access_item_row_change();
--> statement-breakpoint
CREATE TRIGGER item_notes_announce_access
  AFTER INSERT OR UPDATE OR DELETE ON "item_notes"
  FOR EACH ROW EXECUTE FUNCTION announce_access_item_row_change();
--> statement-breakpoint
CREATE TRIGGER users_announce_access
  AFTER UPDATE OF id, role ON "users"
  FOR EACH ROW
  WHEN (OLD.id IS DISTINCT FROM NEW.id OR OLD.role IS DISTINCT FROM NEW.role)
  EXECUTE FUNCTION announce_access_user_change();
--> statement-breakpoint
CREATE TRIGGER users_deleted_announce_access
  AFTER DELETE ON "users"
  FOR EACH ROW EXECUTE FUNCTION announce_access_user_change();
