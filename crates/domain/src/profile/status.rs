use crate::statuses::review_status;

review_status!(
    /// Where the merchant's review of a client stands. Any status may follow any other.
    ProfileStatus,
    "must be Pending, Approved or Declined",
    [Pending, Approved, Declined]
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_parse_in_any_case_and_print_canonically() {
        assert_eq!("approved".parse(), Ok(ProfileStatus::Approved));
        assert_eq!(
            " DECLINED ".parse::<ProfileStatus>().map(|s| s.to_string()),
            Ok("Declined".into())
        );
        assert!(
            "Reviewed".parse::<ProfileStatus>().is_err(),
            "a document status only"
        );
    }
}
