-- Retention (contract §15): how long a decided profile keeps its personal data (NULL:
-- kept), when each profile's status became what it is (retention counts from there), and
-- when retention last erased a profile's personal data.
ALTER TABLE merchants ADD COLUMN retention_days INTEGER;
ALTER TABLE profiles ADD COLUMN status_changed_at BIGINT NOT NULL DEFAULT 0;
ALTER TABLE profiles ADD COLUMN erased_at BIGINT;
-- A profile stored before knows its status's age from its log: the latest status change,
-- or its creation when its status never changed.
UPDATE profiles SET status_changed_at = COALESCE(
    (SELECT MAX(events.created_at) FROM events
      WHERE events.profile_id = profiles.id AND events.activity = 'profile_status_changed'),
    profiles.created_at);
CREATE INDEX profiles_by_decision ON profiles (merchant_id, status, status_changed_at);
