INSERT INTO profile_search (profile_search, rank) VALUES ('automerge', 4);
