CREATE TYPE "public"."invoice_status" AS ENUM('open', 'paid', 'void');--> statement-breakpoint
CREATE TYPE "public"."payment_provider" AS ENUM('sandbox', 'stripe');--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"radiologist_id" uuid NOT NULL,
	"image_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"status" "invoice_status" DEFAULT 'open' NOT NULL,
	"provider" "payment_provider" NOT NULL,
	"provider_ref" text,
	"url" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp (3) with time zone,
	"voided_at" timestamp (3) with time zone,
	CONSTRAINT "invoices_amount_non_negative" CHECK ("invoices"."amount_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"patient_id" uuid NOT NULL,
	"radiologist_id" uuid NOT NULL,
	"rating" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ratings_range" CHECK ("ratings"."rating" between 1 and 5)
);
--> statement-breakpoint
CREATE TABLE "stripe_customers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"customer_id" text NOT NULL,
	CONSTRAINT "stripe_customers_customer_id_unique" UNIQUE("customer_id")
);
--> statement-breakpoint
CREATE TABLE "stripe_events" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_patient_id_users_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_radiologist_id_users_id_fk" FOREIGN KEY ("radiologist_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_image_id_images_id_fk" FOREIGN KEY ("image_id") REFERENCES "public"."images"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_patient_id_users_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_radiologist_id_users_id_fk" FOREIGN KEY ("radiologist_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stripe_customers" ADD CONSTRAINT "stripe_customers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_patient_created_idx" ON "invoices" USING btree ("patient_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "invoices_radiologist_idx" ON "invoices" USING btree ("radiologist_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_provider_ref_unique" ON "invoices" USING btree ("provider_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_open_per_patient" ON "invoices" USING btree ("patient_id") WHERE "invoices"."status" = 'open';--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_one_live_per_image_radiologist" ON "invoices" USING btree ("image_id","radiologist_id") WHERE "invoices"."status" in ('open', 'paid');--> statement-breakpoint
CREATE UNIQUE INDEX "ratings_patient_radiologist_unique" ON "ratings" USING btree ("patient_id","radiologist_id");--> statement-breakpoint
CREATE INDEX "ratings_radiologist_idx" ON "ratings" USING btree ("radiologist_id");