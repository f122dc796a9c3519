-- Every write that changes what a patient's archive list shows announces that patient on the
-- change feed's "archive" channel (db/change-feed.ts), whichever process or tool wrote it, so that
-- cached lists are dropped when the write commits and kept when it rolls back. A change that can
-- touch any number of patients (a name shown on their items) announces every patient (empty payload).
CREATE OR REPLACE FUNCTION announce_archive_patient(patient uuid) RETURNS void AS $$
BEGIN
  IF patient IS NOT NULL THEN
    PERFORM pg_notify('ra_changed_archive', patient::text);
  END IF;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION announce_archive_item_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM announce_archive_patient(OLD.patient_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM announce_archive_patient(NEW.patient_id);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Rows that hang off an item (its study, its notes, its invoices) announce the item's patient;
-- the trigger's argument names the row's item column.
CREATE OR REPLACE FUNCTION announce_archive_child_change() RETURNS trigger AS $$
DECLARE
  item uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN
    item := (to_jsonb(OLD) ->> TG_ARGV[0])::uuid;
  ELSE
    item := (to_jsonb(NEW) ->> TG_ARGV[0])::uuid;
  END IF;
  PERFORM announce_archive_patient((SELECT patient_id FROM images WHERE id = item));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION announce_archive_everyone() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('ra_changed_archive', '');
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER images_announce_archive
  AFTER INSERT OR UPDATE OR DELETE ON "images"
  FOR EACH ROW EXECUTE FUNCTION announce_archive_item_change();
--> statement-breakpoint
CREATE TRIGGER patient_physicians_announce_archive
  AFTER INSERT OR UPDATE OR DELETE ON "patient_physicians"
  FOR EACH ROW EXECUTE FUNCTION announce_archive_item_change();
--> statement-breakpoint
CREATE TRIGGER studies_announce_archive
  AFTER INSERT OR UPDATE OR DELETE ON "studies"
  FOR EACH ROW EXECUTE FUNCTION announce_archive_child_change('item_id');
--> statement-breakpoint
CREATE TRIGGER image_notes_announce_archive
  AFTER INSERT OR UPDATE OR DELETE ON "image_notes"
  FOR EACH ROW EXECUTE FUNCTION announce_archive_child_change('image_id');
--> statement-breakpoint
CREATE TRIGGER invoices_announce_archive
  AFTER INSERT OR UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION announce_archive_child_change('image_id');
--> statement-breakpoint
-- Names appear on every item a person uploaded or wrote on; verification decides what they see.
CREATE TRIGGER users_announce_archive
  AFTER UPDATE OF title, first_name, last_name, email_verified_at ON "users"
  FOR EACH ROW
  WHEN (OLD.title IS DISTINCT FROM NEW.title OR OLD.first_name IS DISTINCT FROM NEW.first_name
    OR OLD.last_name IS DISTINCT FROM NEW.last_name OR OLD.email_verified_at IS DISTINCT FROM NEW.email_verified_at)
  EXECUTE FUNCTION announce_archive_everyone();
--> statement-breakpoint
CREATE TRIGGER users_deleted_announce_archive
  AFTER DELETE ON "users"
  FOR EACH STATEMENT EXECUTE FUNCTION announce_archive_everyone();
