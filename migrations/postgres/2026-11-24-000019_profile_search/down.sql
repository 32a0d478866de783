DROP INDEX profiles_search_mobile;
DROP INDEX profiles_search_email;
DROP INDEX profiles_search_name;
