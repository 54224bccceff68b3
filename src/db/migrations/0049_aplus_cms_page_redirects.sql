CREATE TABLE "page_redirects" (
	"old_path" varchar(1000) PRIMARY KEY NOT NULL,
	"new_path" varchar(1000) NOT NULL
);
