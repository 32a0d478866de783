//! What a file is, by its bytes alone (contract §8): a JPEG starts `FF D8 FF`, a PNG with
//! its signature and an `IHDR` chunk, a PDF with `%PDF-` at byte 0 and `%%EOF` in its last
//! KiB; an image must also yield its dimensions. Anything else (a polyglot that hides
//! `%PDF` further in, an SVG, HTML) is refused.

use domain::document::FileType;

/// Bytes kept from the start of a file for sniffing: enough for a JPEG's frame header
/// behind large metadata segments.
pub const HEAD_BYTES: usize = 256 * 1024;
/// Bytes kept from the end of a file: where a PDF's `%%EOF` must be.
pub const TAIL_BYTES: usize = 1024;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The type of a file whose first bytes are `head` and last bytes `tail`.
pub fn sniff(head: &[u8], tail: &[u8]) -> Option<FileType> {
    let has_dimensions =
        || imagesize::blob_size(head).is_ok_and(|size| size.width > 0 && size.height > 0);
    if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return has_dimensions().then_some(FileType::Jpeg);
    }
    if head.starts_with(PNG_SIGNATURE) && head.get(12..16) == Some(b"IHDR") {
        return has_dimensions().then_some(FileType::Png);
    }
    if head.starts_with(b"%PDF-") && tail.windows(5).any(|w| w == b"%%EOF") {
        return Some(FileType::Pdf);
    }
    None
}

/// The last `TAIL_BYTES` of a stream, kept as it passes.
#[derive(Debug, Default)]
pub struct Tail(Vec<u8>);

impl Tail {
    pub fn push(&mut self, bytes: &[u8]) {
        self.0.extend_from_slice(bytes);
        if self.0.len() > 2 * TAIL_BYTES {
            self.0.drain(..self.0.len() - TAIL_BYTES);
        }
    }

    pub fn bytes(&self) -> &[u8] {
        &self.0[self.0.len().saturating_sub(TAIL_BYTES)..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A JPEG header with a frame of 2 x 3 pixels.
    pub fn tiny_jpeg() -> Vec<u8> {
        let mut b = vec![0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10];
        b.extend_from_slice(b"JFIF\0\x01\x01\0\0\x01\0\x01\0\0");
        b.extend_from_slice(&[0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x03, 0x00, 0x02, 0x03]);
        b.extend_from_slice(&[1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
        b.extend_from_slice(&[0xFF, 0xD9]);
        b
    }

    fn tiny_png() -> Vec<u8> {
        let mut b = PNG_SIGNATURE.to_vec();
        b.extend_from_slice(&[0, 0, 0, 13]);
        b.extend_from_slice(b"IHDR");
        b.extend_from_slice(&[0, 0, 0, 2, 0, 0, 0, 3, 8, 2, 0, 0, 0]);
        b.extend_from_slice(&[0, 0, 0, 0]);
        b
    }

    #[test]
    fn real_headers_are_recognised() {
        assert_eq!(sniff(&tiny_jpeg(), &[]), Some(FileType::Jpeg));
        assert_eq!(sniff(&tiny_png(), &[]), Some(FileType::Png));
        let pdf = b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n";
        assert_eq!(sniff(pdf, pdf), Some(FileType::Pdf));
    }

    #[test]
    fn polyglots_and_headers_without_substance_are_refused() {
        let polyglot =
            b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script>%PDF-1.4 %%EOF";
        assert_eq!(sniff(polyglot, polyglot), None);
        assert_eq!(
            sniff(b"%PDF-1.4 no end", b"%PDF-1.4 no end"),
            None,
            "no %%EOF"
        );
        assert_eq!(
            sniff(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0], &[]),
            None,
            "no dimensions"
        );
        let mut png = PNG_SIGNATURE.to_vec();
        png.extend_from_slice(b"\0\0\0\rIDAT");
        assert_eq!(sniff(&png, &[]), None, "no IHDR");
    }

    #[test]
    fn the_tail_keeps_the_last_kib() {
        let mut tail = Tail::default();
        for _ in 0..10 {
            tail.push(&[b'a'; 700]);
        }
        tail.push(b"%%EOF");
        assert_eq!(tail.bytes().len(), TAIL_BYTES);
        assert!(tail.bytes().ends_with(b"%%EOF"));
    }
}
