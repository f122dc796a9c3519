ALTER TABLE "dicom_instances" DROP CONSTRAINT "dicom_instances_sop_instance_uid_unique";--> statement-breakpoint
ALTER TABLE "dicom_series" DROP CONSTRAINT "dicom_series_series_instance_uid_unique";--> statement-breakpoint
ALTER TABLE "studies" DROP CONSTRAINT "studies_study_instance_uid_unique";--> statement-breakpoint
DROP INDEX "dicom_instances_item_idx";--> statement-breakpoint
ALTER TABLE "studies" ADD COLUMN "namespace_id" uuid;--> statement-breakpoint
UPDATE "studies" SET "namespace_id" = coalesce("images"."patient_id", "images"."receiver_id") FROM "images" WHERE "images"."id" = "studies"."item_id";--> statement-breakpoint
ALTER TABLE "studies" ALTER COLUMN "namespace_id" SET NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "dicom_instances_item_sop_unique" ON "dicom_instances" USING btree ("item_id","sop_instance_uid");--> statement-breakpoint
CREATE INDEX "dicom_instances_sop_idx" ON "dicom_instances" USING btree ("sop_instance_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "dicom_series_item_uid_unique" ON "dicom_series" USING btree ("item_id","series_instance_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "studies_namespace_uid_unique" ON "studies" USING btree ("namespace_id","study_instance_uid");