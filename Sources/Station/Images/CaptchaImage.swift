import Foundation
import SeededRandom

/// Draws a captcha's answer into a PNG: dark glyphs of ``BitmapFont``, each scaled up,
/// shifted and sheared a little, on a speckled light background crossed by a few lines, in
/// the sizes Douban's `/misc/captcha` offered (docs/PROTOCOL.md §5.2: `s` 250×40, `m`
/// 220×40, `l` 400×60).
///
/// Readable by a person at a glance, a nuisance to a script that guesses passwords, not a
/// defence against a determined OCR: the station's real protection is bcrypt and the
/// per-name failure count.
struct CaptchaImage: Sendable {
    /// The sizes of `size=`.
    enum Size: String, Sendable, CaseIterable {
        /// `size=s`: 250×40.
        case small = "s"
        /// `size=m`: 220×40, the default.
        case medium = "m"
        /// `size=l`: 400×60.
        case large = "l"

        /// Pixel width and height.
        var dimensions: (width: Int, height: Int) {
            switch self {
            case .small: (250, 40)
            case .medium: (220, 40)
            case .large: (400, 60)
            }
        }
    }

    /// The text drawn.
    let answer: String
    /// The image size.
    let size: Size
    /// Seeds the jitter and noise, so one captcha always looks the same when fetched again.
    let seed: UInt64

    /// The PNG file.
    var png: Data {
        let (width, height) = size.dimensions
        var pixels = [UInt8](repeating: 235, count: width * height)
        var random = SplitMix64(seed: seed)
        // Speckles: light gray noise that carries no shapes.
        for index in pixels.indices where random.index(below: 6) == 0 {
            pixels[index] = UInt8(190 + random.index(below: 50))
        }
        let glyphs = Array(answer)
        let scale = max(2, (height - 10) / BitmapFont.height)
        let advance = (BitmapFont.width + 2) * scale
        let textWidth = advance * glyphs.count - 2 * scale
        var x0 = max(2, (width - textWidth) / 2)
        let baseTop = (height - BitmapFont.height * scale) / 2
        for character in glyphs {
            let top = baseTop + random.index(below: 7) - 3
            let shear = Double(random.index(below: 5) - 2) / 10
            let ink = UInt8(20 + random.index(below: 60))
            for row in 0..<BitmapFont.height * scale {
                let shift = Int((Double(BitmapFont.height * scale / 2 - row) * shear).rounded())
                for column in 0..<BitmapFont.width * scale
                where BitmapFont.isInk(character, column: column / scale, row: row / scale) {
                    let x = x0 + column + shift, y = top + row
                    if (0..<width).contains(x), (0..<height).contains(y) { pixels[y * width + x] = ink }
                }
            }
            x0 += advance
        }
        // A few thin lines across the text.
        for _ in 0..<3 {
            var y = Double(random.index(below: height))
            let slope = Double(random.index(below: 41) - 20) / Double(width)
            let shade = UInt8(60 + random.index(below: 80))
            for x in 0..<width {
                let row = Int(y)
                if (0..<height).contains(row) { pixels[row * width + x] = shade }
                y += slope * Double(height) / 4
            }
        }
        return PNGEncoder.grayscale(width: width, height: height, pixels: pixels)
    }
}
