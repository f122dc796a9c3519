ALTER TABLE "images" ALTER COLUMN "patient_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "receiver_id" uuid;--> statement-breakpoint
ALTER TABLE "studies" ADD COLUMN "received_from" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_receiver_id_users_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "images_received_idx" ON "images" USING btree ("receiver_id","created_at" DESC NULLS LAST) WHERE "images"."patient_id" is null;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_patient_or_receiver" CHECK ("images"."patient_id" is not null or ("images"."receiver_id" is not null and "images"."kind" = 'study'));