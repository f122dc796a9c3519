CREATE TABLE "incoming_instances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"incoming_id" uuid NOT NULL,
	"sop_instance_uid" text NOT NULL,
	"series_instance_uid" text NOT NULL,
	"modality" text DEFAULT '' NOT NULL,
	"storage_key" text NOT NULL,
	"size" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incoming_studies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"receiver_id" uuid NOT NULL,
	"study_instance_uid" text NOT NULL,
	"study_date" date,
	"study_description" text DEFAULT '' NOT NULL,
	"patient_name_in_file" text DEFAULT '' NOT NULL,
	"patient_birth_date_in_file" date,
	"source" text DEFAULT '' NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "incoming_instances" ADD CONSTRAINT "incoming_instances_incoming_id_incoming_studies_id_fk" FOREIGN KEY ("incoming_id") REFERENCES "public"."incoming_studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incoming_studies" ADD CONSTRAINT "incoming_studies_receiver_id_users_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "incoming_instances_sop_unique" ON "incoming_instances" USING btree ("incoming_id","sop_instance_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "incoming_studies_receiver_study_unique" ON "incoming_studies" USING btree ("receiver_id","study_instance_uid");--> statement-breakpoint
CREATE INDEX "incoming_studies_receiver_idx" ON "incoming_studies" USING btree ("receiver_id","received_at" DESC NULLS LAST);