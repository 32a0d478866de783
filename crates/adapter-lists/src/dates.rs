//! Dates of birth as lists write them.

use screening::BirthDate;

/// The widest range of years listed year by year: "DOB 1958 to 1962" gives 1958, 1959,
/// 1960, 1961 and 1962, so that the matcher sees any of them as a match. A wider range
/// says little of the person; it is kept as its two ends.
pub(crate) const MAX_RANGE_YEARS: i32 = 20;

/// A year of four digits, 1000 or later.
pub(crate) fn year(text: &str) -> Option<i32> {
    let text = text.trim();
    if text.len() != 4 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok().filter(|&year| year >= 1000)
}

/// A year alone.
pub(crate) fn year_only(year: i32) -> BirthDate {
    BirthDate {
        year,
        month_day: None,
    }
}

/// A full date, if it exists (30 February does not).
pub(crate) fn full(year: i32, month: u32, day: u32) -> Option<BirthDate> {
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    if day == 0 || day > days {
        return None;
    }
    Some(BirthDate {
        year,
        month_day: Some((u8::try_from(month).ok()?, u8::try_from(day).ok()?)),
    })
}

/// `YYYY-MM-DD`.
pub(crate) fn iso(text: &str) -> Option<BirthDate> {
    let mut parts = text.trim().split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    let two_digits = |s: &str| s.len() == 2 && s.bytes().all(|b| b.is_ascii_digit());
    if parts.next().is_some() || !two_digits(m) || !two_digits(d) {
        return None;
    }
    full(year(y)?, m.parse().ok()?, d.parse().ok()?)
}

/// `YYYY-MM-DD` or `YYYY`.
pub(crate) fn iso_or_year(text: &str) -> Option<BirthDate> {
    iso(text).or_else(|| year(text).map(year_only))
}

/// The years from `from` to `to`, both included: every one for a range of up to
/// [`MAX_RANGE_YEARS`], the two ends of a wider one. `None` when `to` is before `from`.
pub(crate) fn years(from: i32, to: i32) -> Option<Vec<BirthDate>> {
    if to < from {
        None
    } else if to - from <= MAX_RANGE_YEARS {
        Some((from..=to).map(year_only).collect())
    } else {
        Some(vec![year_only(from), year_only(to)])
    }
}

/// What follows "DOB " in an OFAC remark: "12 Jan 1960", "Jan 1960" (the year: a month
/// without its day cannot be said), "1960", "circa 1960", "1958 to 1962", "circa 1958 to
/// 1962", "12 Jan 1960 to 14 Feb 1960" (the two ends). Empty when unreadable: the remarks
/// are free text, whose odd date must not refuse a list of thousands.
pub(crate) fn ofac(text: &str) -> Vec<BirthDate> {
    let text = text.trim();
    let text = strip_circa(text);
    if let Some((from, to)) = text.split_once(" to ") {
        return match (ofac_one(strip_circa(from)), ofac_one(strip_circa(to))) {
            (Some(a), Some(b)) if a.month_day.is_none() && b.month_day.is_none() => {
                years(a.year, b.year).unwrap_or_default()
            }
            (Some(a), Some(b)) if a <= b => vec![a, b],
            _ => Vec::new(),
        };
    }
    ofac_one(text).into_iter().collect()
}

fn strip_circa(text: &str) -> &str {
    let text = text.trim();
    match text.get(..6) {
        Some(circa) if circa.eq_ignore_ascii_case("circa ") => text[6..].trim(),
        _ => text,
    }
}

/// "12 Jan 1960", "Jan 1960" or "1960".
fn ofac_one(text: &str) -> Option<BirthDate> {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words[..] {
        [day, month, y] => {
            let day = day.parse().ok().filter(|_| day.len() <= 2)?;
            full(year(y)?, month_number(month)?, day)
        }
        [month, y] => {
            month_number(month)?;
            year(y).map(year_only)
        }
        [y] => year(y).map(year_only),
        _ => None,
    }
}

fn month_number(name: &str) -> Option<u32> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let name = name.to_ascii_lowercase();
    let position = MONTHS.iter().position(|m| *m == name)?;
    u32::try_from(position + 1).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(year: i32, month: u8, day: u8) -> BirthDate {
        BirthDate {
            year,
            month_day: Some((month, day)),
        }
    }

    #[test]
    fn iso_dates_and_years() {
        assert_eq!(iso_or_year("1960-01-12"), Some(date(1960, 1, 12)));
        assert_eq!(iso_or_year(" 1960 "), Some(year_only(1960)));
        assert_eq!(iso_or_year("2000-02-29"), Some(date(2000, 2, 29)));
        for bad in [
            "1900-02-29",
            "1960-13-01",
            "1960-1-12",
            "60",
            "0999",
            "1960-01-12-1",
        ] {
            assert_eq!(iso_or_year(bad), None, "{bad}");
        }
    }

    #[test]
    fn ofac_dates_of_birth_in_every_form() {
        assert_eq!(ofac("12 Jan 1960"), [date(1960, 1, 12)]);
        assert_eq!(ofac("01 SEP 1958"), [date(1958, 9, 1)]);
        assert_eq!(ofac("Jan 1960"), [year_only(1960)]);
        assert_eq!(ofac("1960"), [year_only(1960)]);
        assert_eq!(ofac("circa 1960"), [year_only(1960)]);
        assert_eq!(
            ofac("1958 to 1960"),
            (1958..=1960).map(year_only).collect::<Vec<_>>()
        );
        assert_eq!(ofac("circa 1958 to 1960").len(), 3);
        assert_eq!(
            ofac("12 Jan 1960 to 14 Feb 1960"),
            [date(1960, 1, 12), date(1960, 2, 14)]
        );
        assert_eq!(ofac("1900 to 1990"), [year_only(1900), year_only(1990)]);
        for unreadable in ["", "31 Feb 1960", "1962 to 1958", "the 1960s", "12 Jan 60"] {
            assert_eq!(ofac(unreadable), [], "{unreadable}");
        }
    }
}
