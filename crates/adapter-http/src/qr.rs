//! QR codes of quiz links, for the dashboard (a link to hand over) and the quiz page
//! (a desktop visitor goes on with a phone).

use base64::Engine;
use qrcode::QrCode;
use qrcode::render::svg;

/// `link` as a QR code, an SVG in a `data:` address (the pages' security policy allows
/// images from `data:` and nothing inline); `None` for a link too long for any QR code
/// (the page still shows it as text).
pub fn data_address(link: &str) -> Option<String> {
    let code = QrCode::new(link.as_bytes()).ok()?;
    let svg = code
        .render::<svg::Color>()
        .min_dimensions(240, 240)
        .quiet_zone(true)
        .build();
    Some(format!(
        "data:image/svg+xml;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(svg)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_qr_code_is_an_svg_image() {
        let address = data_address("https://idv.example/q/AbCdEfGh12").expect("encoded");
        let encoded = address
            .strip_prefix("data:image/svg+xml;base64,")
            .expect("a data address");
        let svg = base64::engine::general_purpose::STANDARD
            .decode(encoded)
            .expect("base64");
        let svg = String::from_utf8(svg).expect("text");
        assert!(svg.contains("<svg") && svg.contains("</svg>"), "{svg}");
        assert_eq!(
            data_address(&"x".repeat(8000)),
            None,
            "past what a QR code holds"
        );
    }
}
