CREATE TYPE "public"."item_kind" AS ENUM('image', 'study');--> statement-breakpoint
ALTER TYPE "public"."upload_purpose" ADD VALUE 'dicom';--> statement-breakpoint
ALTER TYPE "public"."upload_purpose" ADD VALUE 'dicom-zip';--> statement-breakpoint
CREATE TABLE "dicom_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"series_id" uuid NOT NULL,
	"sop_instance_uid" text NOT NULL,
	"sop_class_uid" text NOT NULL,
	"transfer_syntax_uid" text NOT NULL,
	"instance_number" integer,
	"number_of_frames" integer DEFAULT 1 NOT NULL,
	"rows" integer,
	"columns" integer,
	"is_image" boolean NOT NULL,
	"storage_key" text NOT NULL,
	"filename" text DEFAULT '' NOT NULL,
	"size" bigint NOT NULL,
	"metadata" jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dicom_instances_sop_instance_uid_unique" UNIQUE("sop_instance_uid")
);
--> statement-breakpoint
CREATE TABLE "dicom_series" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"item_id" uuid NOT NULL,
	"series_instance_uid" text NOT NULL,
	"modality" text DEFAULT '' NOT NULL,
	"series_number" integer,
	"series_description" text DEFAULT '' NOT NULL,
	"body_part_examined" text DEFAULT '' NOT NULL,
	"instance_count" integer DEFAULT 0 NOT NULL,
	"thumbnail_key" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dicom_series_series_instance_uid_unique" UNIQUE("series_instance_uid")
);
--> statement-breakpoint
CREATE TABLE "studies" (
	"item_id" uuid PRIMARY KEY NOT NULL,
	"study_instance_uid" text NOT NULL,
	"study_date" date,
	"study_time" text DEFAULT '' NOT NULL,
	"study_description" text DEFAULT '' NOT NULL,
	"accession_number" text DEFAULT '' NOT NULL,
	"study_id" text DEFAULT '' NOT NULL,
	"referring_physician_name" text DEFAULT '' NOT NULL,
	"patient_name_in_file" text DEFAULT '' NOT NULL,
	"patient_id_in_file" text DEFAULT '' NOT NULL,
	"patient_birth_date_in_file" date,
	"patient_sex_in_file" text DEFAULT '' NOT NULL,
	"modalities" text[] DEFAULT '{}' NOT NULL,
	"series_count" integer DEFAULT 0 NOT NULL,
	"instance_count" integer DEFAULT 0 NOT NULL,
	"preview_note" text,
	CONSTRAINT "studies_study_instance_uid_unique" UNIQUE("study_instance_uid")
);
--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "kind" "item_kind" DEFAULT 'image' NOT NULL;--> statement-breakpoint
ALTER TABLE "dicom_instances" ADD CONSTRAINT "dicom_instances_item_id_images_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_instances" ADD CONSTRAINT "dicom_instances_series_id_dicom_series_id_fk" FOREIGN KEY ("series_id") REFERENCES "public"."dicom_series"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dicom_series" ADD CONSTRAINT "dicom_series_item_id_images_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_item_id_images_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dicom_instances_series_idx" ON "dicom_instances" USING btree ("series_id","instance_number");--> statement-breakpoint
CREATE INDEX "dicom_instances_item_idx" ON "dicom_instances" USING btree ("item_id");--> statement-breakpoint
CREATE INDEX "dicom_series_item_idx" ON "dicom_series" USING btree ("item_id","series_number");