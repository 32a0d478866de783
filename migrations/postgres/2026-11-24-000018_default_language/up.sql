-- The language the client's pages speak when neither the link (`?lang`) nor the browser
-- names one they speak (contract §14): en, fr or es.
ALTER TABLE merchants ADD COLUMN default_language TEXT NOT NULL DEFAULT 'en';
