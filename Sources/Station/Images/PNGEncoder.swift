import Foundation

/// Writes 8-bit grayscale PNG images (ISO/IEC 15948), enough for captchas without an image
/// library: the pixel rows go into zlib "stored" (uncompressed) deflate blocks, which every
/// PNG decoder reads; a captcha is a few kilobytes either way.
enum PNGEncoder {
    /// Encodes `pixels` (row-major, one byte per pixel, 0 black … 255 white).
    static func grayscale(width: Int, height: Int, pixels: [UInt8]) -> Data {
        precondition(pixels.count == width * height, "one byte per pixel")
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        // Bit depth 8, colour type 0 (grayscale), deflate, adaptive filtering, no interlace.
        header.append(contentsOf: [8, 0, 0, 0, 0])
        png.appendChunk("IHDR", header)
        // Each row starts with its filter type: 0, none.
        var raw = [UInt8]()
        raw.reserveCapacity((width + 1) * height)
        for row in 0..<height {
            raw.append(0)
            raw.append(contentsOf: pixels[(row * width)..<((row + 1) * width)])
        }
        png.appendChunk("IDAT", zlibStored(raw))
        png.appendChunk("IEND", Data())
        return png
    }

    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 §3.2.4).
    static func zlibStored(_ bytes: [UInt8]) -> Data {
        // CMF 0x78 (deflate, 32K window), FLG 0x01 (no dictionary, check bits: 0x7801 % 31 == 0).
        var out = Data([0x78, 0x01])
        var offset = 0
        repeat {
            let length = min(65_535, bytes.count - offset)
            let isFinal = offset + length == bytes.count
            out.append(isFinal ? 1 : 0)  // BFINAL, BTYPE 00
            out.append(UInt8(length & 0xFF))
            out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF))
            out.append(UInt8((~length >> 8) & 0xFF))
            out.append(contentsOf: bytes[offset..<(offset + length)])
            offset += length
        } while offset < bytes.count
        out.appendBigEndian(adler32(bytes))
        return out
    }

    /// Adler-32 (RFC 1950 §8).
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// CRC-32 as PNG uses it (ISO 3309, polynomial 0xEDB88320, reflected).
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let table: [UInt32] = (0..<256).map { index in
        var c = UInt32(index)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}

extension Data {
    /// Appends a 32-bit big-endian integer.
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF),
                            UInt8(value & 0xFF)])
    }

    /// Appends a PNG chunk: length, type, data, CRC over type and data.
    fileprivate mutating func appendChunk(_ type: String, _ body: Data) {
        appendBigEndian(UInt32(body.count))
        let typeAndBody = Data(type.utf8) + body
        append(typeAndBody)
        appendBigEndian(PNGEncoder.crc32(typeAndBody))
    }
}
