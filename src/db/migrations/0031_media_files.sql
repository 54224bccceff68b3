CREATE TABLE "media_files" (
	"path" text PRIMARY KEY NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"content_type" varchar(100) NOT NULL,
	"size" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
