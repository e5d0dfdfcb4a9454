import Foundation

/// Reads the lines after `#EXTM3U` of a master playlist.
enum MasterReader {
    static func read(_ lines: [PlaylistParser.Line], base: URL) throws(PlaylistError) -> MasterPlaylist {
        var master = MasterPlaylist()
        // An EXT-X-STREAM-INF waiting for its URI line.
        var pending: (line: PlaylistParser.Line, attributes: AttributeList)?
        for line in lines {
            if let pendingVariant = pending, line.isTag {
                // RFC 8216 §4.3.4.2: the URI line "MUST" follow the tag.
                throw .malformed(line: pendingVariant.line.number, text: pendingVariant.line.text, reason: .missingURI)
            }
            if let value = line.value(of: "#EXT-X-STREAM-INF") {
                let list = try PlaylistParser.attributes(value, line: line)
                guard list["BANDWIDTH"] != nil else {
                    throw .malformed(line: line.number, text: line.text, reason: .missingBandwidth)
                }
                guard list.integer("BANDWIDTH") != nil else {
                    throw .malformed(line: line.number, text: line.text, reason: .badNumber)
                }
                pending = (line, list)
            } else if let value = line.value(of: "#EXT-X-MEDIA") {
                master.renditions.append(try rendition(value, line: line, base: base))
            } else if line.value(of: "#EXT-X-I-FRAME-STREAM-INF") != nil {
                master.iFrameStreamCount += 1
            } else if line.value(of: "#EXT-X-INDEPENDENT-SEGMENTS") != nil {
                master.independentSegments = true
            } else if line.isURI, let (tag, list) = pending {
                let uri = try PlaylistParser.resolve(line.text, base: base, line: line)
                master.variants.append(Variant(
                    uri: uri, bandwidth: list.integer("BANDWIDTH") ?? 0,
                    averageBandwidth: try number(list, "AVERAGE-BANDWIDTH", line: tag),
                    codecs: list["CODECS"], resolution: list["RESOLUTION"], audioGroup: list["AUDIO"], name: list["NAME"],
                    frameRate: list["FRAME-RATE"].flatMap(Double.init)))
                pending = nil
            }
            // Anything else — comments, tags of media playlists, URI lines after EXT-X-MEDIA
            // or EXT-X-I-FRAME-STREAM-INF — is not a variant.
        }
        if let pending { throw .malformed(line: pending.line.number, text: pending.line.text, reason: .missingURI) }
        return master
    }

    private static func number(_ list: AttributeList, _ name: String, line: PlaylistParser.Line) throws(PlaylistError) -> Int? {
        guard let text = list[name] else { return nil }
        guard let value = Int(text) else { throw .malformed(line: line.number, text: line.text, reason: .badNumber) }
        return value
    }

    private static func rendition(_ value: Substring, line: PlaylistParser.Line, base: URL) throws(PlaylistError) -> Rendition {
        let list = try PlaylistParser.attributes(value, line: line)
        let type: Rendition.Kind
        switch list["TYPE"]?.uppercased() {
        case "AUDIO": type = .audio
        case "VIDEO": type = .video
        case "SUBTITLES": type = .subtitles
        case "CLOSED-CAPTIONS": type = .closedCaptions
        default: type = .other(list["TYPE"] ?? "")
        }
        let uri = try list["URI"].map { text throws(PlaylistError) in try PlaylistParser.resolve(text, base: base, line: line) }
        return Rendition(type: type, groupID: list["GROUP-ID"] ?? "", name: list["NAME"] ?? "", language: list["LANGUAGE"],
                         uri: uri, isDefault: list.flag("DEFAULT"), autoselect: list.flag("AUTOSELECT"),
                         channels: list["CHANNELS"])
    }
}
