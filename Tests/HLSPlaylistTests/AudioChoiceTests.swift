import Foundation
import Testing
@testable import HLSPlaylist

/// Where a master playlist's audio comes from: a rendition's own playlist only when its
/// language was asked for or it is what plays by default, else the variant's own audio.
struct AudioChoiceTests {
    static let base = URL(string: "http://host/bipbop-advanced/bipbop_16x9_variant.m3u8")!

    /// Modelled on Apple's bipbop "advanced" example (bipbop_16x9_variant.m3u8): the
    /// default audio, "BipBop Audio 1", has no URI (it is muxed into every variant), and an
    /// `AUTOSELECT=NO` alternate, "BipBop Audio 2", is a sine wave with a playlist of its own.
    static let bipbop = """
        #EXTM3U

        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="bipbop_audio",LANGUAGE="eng",NAME="BipBop Audio 1",AUTOSELECT=YES,DEFAULT=YES
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="bipbop_audio",LANGUAGE="eng",NAME="BipBop Audio 2",AUTOSELECT=NO,DEFAULT=NO,URI="alternate_audio_aac_sinewave/prog_index.m3u8"
        #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="English",DEFAULT=YES,AUTOSELECT=YES,FORCED=NO,LANGUAGE="en",URI="subtitles/eng/prog_index.m3u8"

        #EXT-X-STREAM-INF:BANDWIDTH=263851,CODECS="mp4a.40.2, avc1.4d400d",RESOLUTION=416x234,AUDIO="bipbop_audio",SUBTITLES="subs"
        gear1/prog_index.m3u8
        #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=28451,CODECS="avc1.4d400d",URI="gear1/iframe_index.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=577610,CODECS="mp4a.40.2, avc1.4d401e",RESOLUTION=640x360,AUDIO="bipbop_audio",SUBTITLES="subs"
        gear2/prog_index.m3u8
        #EXT-X-STREAM-INF:BANDWIDTH=41457,CODECS="mp4a.40.2",AUDIO="bipbop_audio",SUBTITLES="subs"
        gear0/prog_index.m3u8

        """

    static func master(_ text: String) throws -> MasterPlaylist {
        guard case .master(let master) = try PlaylistParser.parse(text, url: base) else {
            Issue.record("not a master playlist")
            return MasterPlaylist()
        }
        return master
    }

    @Test func theDefaultAudioInsideTheVariantKeepsTheAudioOnlyVariantNotTheSineWave() throws {
        let master = try Self.master(Self.bipbop)
        let choice = try #require(master.choose(.best))
        #expect(choice.variant.uri.absoluteString == "http://host/bipbop-advanced/gear0/prog_index.m3u8")
        #expect(choice.audio == nil)
        #expect(choice.reason == .defaultInVariant(unmatchedLanguage: nil) && choice.reason.source == .variant)
        #expect(choice.rendition?.name == "BipBop Audio 1")
        // Asked for by its language, "eng", the default one matches first: still the variant.
        let english = try #require(master.choose(.best, audioLanguage: "eng"))
        #expect(english.audio == nil && english.reason == .languageInVariant && english.rendition?.name == "BipBop Audio 1")
        // A language no rendition has falls back to the default, and says so.
        let german = try #require(master.choose(.worst, audioLanguage: "de"))
        #expect(german.audio == nil && german.reason == .defaultInVariant(unmatchedLanguage: "de"))
        // Asked for by name, the alternate's own playlist is fetched.
        let alternate = try #require(master.choose(.best, audioLanguage: "BipBop Audio 2"))
        #expect(alternate.reason == .languageHasPlaylist && alternate.reason.source == .rendition)
        #expect(alternate.audio?.uri?.absoluteString
            == "http://host/bipbop-advanced/alternate_audio_aac_sinewave/prog_index.m3u8")
    }

    @Test func withoutAnAudioOnlyVariantTheVideoVariantCarriesTheDefaultAudio() throws {
        let master = try Self.master(Self.bipbop.replacingOccurrences(
            of: "#EXT-X-STREAM-INF:BANDWIDTH=41457,CODECS=\"mp4a.40.2\",AUDIO=\"bipbop_audio\",SUBTITLES=\"subs\"\ngear0/prog_index.m3u8\n",
            with: ""))
        #expect(master.variants.count == 2)
        let choice = try #require(master.choose(.worst))
        #expect(choice.variant.uri.lastPathComponent == "prog_index.m3u8" && choice.variant.resolution == "416x234")
        #expect(choice.audio == nil && choice.reason == .defaultInVariant(unmatchedLanguage: nil))
    }

    @Test func whatPlaysByDefaultIsDefaultElseAutoselectElseTheFirst() throws {
        func master(_ renditions: String) throws -> MasterPlaylist {
            try Self.master("""
                #EXTM3U
                \(renditions)
                #EXT-X-STREAM-INF:BANDWIDTH=800000,CODECS="avc1.42e01e,mp4a.40.2",RESOLUTION=640x360,AUDIO="aud"
                video.m3u8

                """)
        }
        let autoselect = try master("""
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Commentary",URI="commentary.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Main",AUTOSELECT=YES,URI="main.m3u8"
            """).choose(.best)
        #expect(autoselect?.audio?.name == "Main" && autoselect?.reason == .defaultHasPlaylist(unmatchedLanguage: nil))
        let first = try master("""
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="One",URI="one.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Two",URI="two.m3u8"
            """).choose(.best)
        #expect(first?.audio?.name == "One")
        // An autoselected rendition inside the variant, beside an alternate with a URI.
        let muxed = try master("""
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Tone",URI="tone.m3u8"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="Main",AUTOSELECT=YES
            """).choose(.best)
        #expect(muxed?.audio == nil && muxed?.rendition?.name == "Main" && muxed?.reason.source == .variant)
        // Another group's renditions and other types do not count.
        let none = try master("""
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="other",NAME="Elsewhere",DEFAULT=YES,URI="elsewhere.m3u8"
            #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="aud",NAME="Subs",DEFAULT=YES,URI="subs.m3u8"
            """).choose(.best)
        #expect(none?.audio == nil && none?.rendition == nil && none?.reason == .emptyGroup)
        let noGroup = try Self.master("""
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=64000,CODECS="mp4a.40.2"
            audio.m3u8

            """).choose(.best)
        #expect(noGroup?.reason == .noAudioGroup && noGroup?.audio == nil)
    }
}
