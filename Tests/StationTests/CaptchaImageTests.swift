import Foundation
@testable import Station
import Testing
import TestSupport

/// The captcha picture: a valid PNG (checked by Python's zlib, not by our own encoder) of
/// Douban's sizes, with the answer's glyphs drawn in dark ink.
@Suite("Captcha image")
struct CaptchaImageTests {
    /// Decodes a grayscale PNG with python3's zlib and returns width, height and pixels.
    private func decode(_ png: Data) async throws -> (width: Int, height: Int, pixels: [UInt8]) {
        let file = try TemporaryDirectory(prefix: "mhz-png")
        let path = file.path("captcha.png")
        try png.write(to: path)
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
            pos, idat, size = 8, b'', None
            while pos < len(data):
                n, kind = struct.unpack('>I4s', data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + n]
                assert struct.unpack('>I', data[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body), kind
                if kind == b'IHDR': size = struct.unpack('>IIBBBBB', body)
                if kind == b'IDAT': idat += body
                pos += 12 + n
            w, h, depth, colour = size[:4]
            assert (depth, colour) == (8, 0)
            raw = zlib.decompress(idat)
            rows = [raw[r * (w + 1):(r + 1) * (w + 1)] for r in range(h)]
            assert all(row[0] == 0 for row in rows)
            open(sys.argv[2], 'wb').write(struct.pack('>II', w, h) + b''.join(row[1:] for row in rows))
            """
        let output = file.path("pixels")
        try await offPool { try MediaFactory.run("python3", ["-c", script, path.path, output.path]) }
        let bytes = [UInt8](try Data(contentsOf: output))
        let width = Int(bytes[0]) << 24 | Int(bytes[1]) << 16 | Int(bytes[2]) << 8 | Int(bytes[3])
        let height = Int(bytes[4]) << 24 | Int(bytes[5]) << 16 | Int(bytes[6]) << 8 | Int(bytes[7])
        return (width, height, Array(bytes.dropFirst(8)))
    }

    @Test("s, m and l are 250×40, 220×40 and 400×60 PNGs that decode; the answer is drawn in ink")
    func sizes() async throws {
        for (size, expected) in [(CaptchaImage.Size.small, (250, 40)), (.medium, (220, 40)), (.large, (400, 60))] {
            let image = try await decode(CaptchaImage(answer: "K7WPX", size: size, seed: 1).png)
            #expect(image.width == expected.0 && image.height == expected.1, "\(size)")
            #expect(image.pixels.count == expected.0 * expected.1)
            // Glyph ink is darker than anything the background or the lines use.
            let ink = image.pixels.filter { $0 < 60 }.count
            #expect(ink > 200, "\(size): \(ink) ink pixels")
        }
    }

    @Test("the same captcha draws the same picture; another answer draws another")
    func deterministic() async throws {
        let first = try await decode(CaptchaImage(answer: "ABCDE", size: .medium, seed: 9).png).pixels
        let again = try await decode(CaptchaImage(answer: "ABCDE", size: .medium, seed: 9).png).pixels
        let other = try await decode(CaptchaImage(answer: "XYZ23", size: .medium, seed: 9).png).pixels
        #expect(first == again)
        // The ink differs where the glyphs differ.
        let differing = zip(first, other).filter { ($0 < 60) != ($1 < 60) }.count
        #expect(differing > 100)
    }

    @Test("every answer character has a glyph")
    func glyphs() {
        for character in CaptchaStore.alphabet {
            let cells = (0..<BitmapFont.height).flatMap { row in
                (0..<BitmapFont.width).map { BitmapFont.isInk(character, column: $0, row: row) }
            }
            #expect(cells.filter { $0 }.count >= 7, "\(character)")
        }
        #expect(!BitmapFont.isInk("O", column: 0, row: 1), "look-alikes are left out")
    }
}
