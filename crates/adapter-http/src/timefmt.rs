use time::OffsetDateTime;
use time::macros::format_description;

/// RFC 3339 in UTC with second precision: `2026-11-21T09:30:00Z`.
pub fn rfc3339(t: OffsetDateTime) -> String {
    let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]Z");
    t.to_offset(time::UtcOffset::UTC)
        .format(&format)
        .unwrap_or_default()
}

/// A calendar day as `YYYY-MM-DD`.
pub fn iso_date(day: time::Date) -> String {
    day.format(&format_description!("[year]-[month]-[day]"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn timestamps_are_utc_with_whole_seconds() {
        assert_eq!(
            rfc3339(datetime!(2026-11-21 09:30:00.987 UTC)),
            "2026-11-21T09:30:00Z"
        );
        assert_eq!(
            rfc3339(datetime!(2026-11-21 11:30:00 +2)),
            "2026-11-21T09:30:00Z"
        );
    }
}
