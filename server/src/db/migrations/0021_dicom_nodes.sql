-- DICOM nodes a physician registered (modules/dicom-node): the calling AE titles the DICOM node accepts
-- associations from, the host they must come from, and the port studies are sent to.
CREATE TABLE "dicom_nodes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"physician_id" uuid NOT NULL,
	"ae_title" text NOT NULL,
	"host" text,
	"port" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "dicom_nodes" ADD CONSTRAINT "dicom_nodes_physician_id_users_id_fk" FOREIGN KEY ("physician_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dicom_nodes_ae_title_unique" ON "dicom_nodes" USING btree ("ae_title");--> statement-breakpoint
CREATE INDEX "dicom_nodes_physician_idx" ON "dicom_nodes" USING btree ("physician_id");