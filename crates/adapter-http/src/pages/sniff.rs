//! What a file is, by its bytes alone (contract §8): a JPEG starts `FF D8 FF`, a PNG with
//! its signature and an `IHDR` chunk, a PDF with `%PDF-` at byte 0 and `%%EOF` in its last
//! KiB; an image must also yield its dimensions. Anything else (a polyglot that hides
//! `%PDF` further in, an SVG, HTML) is refused. An image's dimensions are read from its
//! header (PNG `IHDR`, JPEG start of frame), never by decoding it.

use domain::document::FileType;

/// Bytes kept from the start of a file for sniffing: enough for a JPEG's frame header
/// behind large metadata segments.
pub const HEAD_BYTES: usize = 256 * 1024;
/// Bytes kept from the end of a file: where a PDF's `%%EOF` must be.
pub const TAIL_BYTES: usize = 1024;

const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

/// What a file's bytes say it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sniffed {
    pub file_type: FileType,
    /// Width times height, as an image's header declares them; `None` for a PDF.
    pub pixels: Option<u64>,
}

/// What a file whose first bytes are `head` and last bytes `tail` is.
pub fn sniff(head: &[u8], tail: &[u8]) -> Option<Sniffed> {
    let image = |file_type| {
        let size = imagesize::blob_size(head).ok()?;
        let pixels = (size.width as u64).checked_mul(size.height as u64)?;
        (pixels > 0).then_some(Sniffed {
            file_type,
            pixels: Some(pixels),
        })
    };
    if head.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return image(FileType::Jpeg);
    }
    if head.starts_with(PNG_SIGNATURE) && head.get(12..16) == Some(b"IHDR") {
        return image(FileType::Png);
    }
    if head.starts_with(b"%PDF-") && tail.windows(5).any(|w| w == b"%%EOF") {
        return Some(Sniffed {
            file_type: FileType::Pdf,
            pixels: None,
        });
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

    fn file_type(head: &[u8], tail: &[u8]) -> Option<FileType> {
        sniff(head, tail).map(|s| s.file_type)
    }

    #[test]
    fn real_headers_are_recognised_with_their_declared_pixels() {
        assert_eq!(
            sniff(&tiny_jpeg(), &[]),
            Some(Sniffed {
                file_type: FileType::Jpeg,
                pixels: Some(6)
            })
        );
        assert_eq!(
            sniff(&tiny_png(), &[]),
            Some(Sniffed {
                file_type: FileType::Png,
                pixels: Some(6)
            })
        );
        let pdf = b"%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n";
        assert_eq!(
            sniff(pdf, pdf),
            Some(Sniffed {
                file_type: FileType::Pdf,
                pixels: None
            })
        );
    }

    #[test]
    fn polyglots_and_headers_without_substance_are_refused() {
        let polyglot =
            b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script>%PDF-1.4 %%EOF";
        assert_eq!(file_type(polyglot, polyglot), None);
        assert_eq!(
            file_type(b"%PDF-1.4 no end", b"%PDF-1.4 no end"),
            None,
            "no %%EOF"
        );
        assert_eq!(
            file_type(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0], &[]),
            None,
            "no dimensions"
        );
        let mut png = PNG_SIGNATURE.to_vec();
        png.extend_from_slice(b"\0\0\0\rIDAT");
        assert_eq!(file_type(&png, &[]), None, "no IHDR");
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
