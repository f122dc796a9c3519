-- True names: the "images" table has held studies as well as raster images since 0007, so it is
-- renamed to what it is, with everything named after it. Wire names (image_uid, /api/image/…) stay.
ALTER TABLE "images" RENAME TO "archive_items";
--> statement-breakpoint
ALTER TABLE "archive_items" RENAME CONSTRAINT "images_pkey" TO "archive_items_pkey";
--> statement-breakpoint
ALTER TABLE "archive_items" RENAME CONSTRAINT "images_patient_or_receiver" TO "archive_items_patient_or_receiver";
--> statement-breakpoint
ALTER TABLE "archive_items" RENAME CONSTRAINT "images_patient_id_users_id_fk" TO "archive_items_patient_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "archive_items" RENAME CONSTRAINT "images_receiver_id_users_id_fk" TO "archive_items_receiver_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "archive_items" RENAME CONSTRAINT "images_uploader_id_users_id_fk" TO "archive_items_uploader_id_users_id_fk";
--> statement-breakpoint
ALTER INDEX "images_patient_created_idx" RENAME TO "archive_items_patient_created_idx";
--> statement-breakpoint
ALTER INDEX "images_received_idx" RENAME TO "archive_items_received_idx";
--> statement-breakpoint
ALTER INDEX "images_uploader_size_idx" RENAME TO "archive_items_uploader_size_idx";
--> statement-breakpoint
ALTER TRIGGER "images_announce_archive" ON "archive_items" RENAME TO "archive_items_announce_archive";
--> statement-breakpoint
ALTER TABLE "image_notes" RENAME TO "item_notes";
--> statement-breakpoint
ALTER TABLE "item_notes" RENAME COLUMN "image_id" TO "item_id";
--> statement-breakpoint
ALTER TABLE "item_notes" RENAME CONSTRAINT "image_notes_pkey" TO "item_notes_pkey";
--> statement-breakpoint
ALTER TABLE "item_notes" RENAME CONSTRAINT "image_notes_author_id_users_id_fk" TO "item_notes_author_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "item_notes" RENAME CONSTRAINT "image_notes_image_id_images_id_fk" TO "item_notes_item_id_archive_items_id_fk";
--> statement-breakpoint
ALTER TABLE "item_notes" RENAME CONSTRAINT "image_notes_recommendation_id_users_id_fk" TO "item_notes_recommendation_id_users_id_fk";
--> statement-breakpoint
ALTER INDEX "image_notes_image_author_unique" RENAME TO "item_notes_item_author_unique";
--> statement-breakpoint
ALTER TABLE "invoices" RENAME COLUMN "image_id" TO "item_id";
--> statement-breakpoint
ALTER TABLE "invoices" RENAME CONSTRAINT "invoices_image_id_images_id_fk" TO "invoices_item_id_archive_items_id_fk";
--> statement-breakpoint
ALTER INDEX "invoices_one_live_per_image_radiologist" RENAME TO "invoices_one_live_per_item_radiologist";
--> statement-breakpoint
ALTER TABLE "annotations" RENAME CONSTRAINT "annotations_item_id_images_id_fk" TO "annotations_item_id_archive_items_id_fk";
--> statement-breakpoint
ALTER TABLE "studies" RENAME CONSTRAINT "studies_item_id_images_id_fk" TO "studies_item_id_archive_items_id_fk";
--> statement-breakpoint
ALTER TABLE "dicom_series" RENAME CONSTRAINT "dicom_series_item_id_images_id_fk" TO "dicom_series_item_id_archive_items_id_fk";
--> statement-breakpoint
ALTER TABLE "dicom_instances" RENAME CONSTRAINT "dicom_instances_item_id_images_id_fk" TO "dicom_instances_item_id_archive_items_id_fk";
--> statement-breakpoint
-- The change feed (0013): child rows name their item in a column given as the trigger's argument,
-- and the function looks the item up by table name, so both follow the new names.
CREATE OR REPLACE FUNCTION announce_archive_child_change() RETURNS trigger AS $$
DECLARE
  item uuid;
BEGIN
  IF TG_OP = 'DELETE' THEN
    item := (to_jsonb(OLD) ->> TG_ARGV[0])::uuid;
  ELSE
    item := (to_jsonb(NEW) ->> TG_ARGV[0])::uuid;
  END IF;
  PERFORM announce_archive_patient((SELECT patient_id FROM archive_items WHERE id = item));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
DROP TRIGGER "image_notes_announce_archive" ON "item_notes";
--> statement-breakpoint
CREATE TRIGGER item_notes_announce_archive
  AFTER INSERT OR UPDATE OR DELETE ON "item_notes"
  FOR EACH ROW EXECUTE FUNCTION announce_archive_child_change('item_id');
--> statement-breakpoint
DROP TRIGGER "invoices_announce_archive" ON "invoices";
--> statement-breakpoint
CREATE TRIGGER invoices_announce_archive
  AFTER INSERT OR UPDATE OR DELETE ON "invoices"
  FOR EACH ROW EXECUTE FUNCTION announce_archive_child_change('item_id');
