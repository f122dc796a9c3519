ALTER TABLE "dicom_instances" ADD COLUMN "pixel_data_offset" bigint;--> statement-breakpoint
ALTER TABLE "dicom_instances" ADD COLUMN "frame_bytes" bigint;